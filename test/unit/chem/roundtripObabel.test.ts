// Every chemical format we write, re-read by another toolkit: Open Babel (Debian package
// openbabel) reads what we wrote and derives the InChIKey, which must be the compound's.
// Our own reader's round trips are in roundtrip.test.ts; this one keeps us honest about
// files other programs read (SPEC §2.2).
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tempDir } from '../../helpers/tempDirs.ts';
import path from 'node:path';
import { initChem, parseStructure, type ParsedStructure } from '../../../src/chem/index.ts';
import { writeStructure, type StructureRecord, type TextOutput } from '../../../src/chem/write.ts';
import { STRUCTURES } from '../../fixtures/structures.ts';

type Rec = ParsedStructure & { title: string; name: string };

/**
 * Open Babel's InChIKey per record title for a multi-record input (its -xt option appends the
 * title to each key). From a file: from standard input its CML reader stops after one molecule.
 */
function keysByTitle(format: string, text: string): Map<string, string> {
  const dir = tempDir('obabel-');
  const file = path.join(dir, `input.${format}`);
  writeFileSync(file, text);
  let out: string;
  try {
    out = execFileSync('obabel', [`-i${format}`, file, '-oinchikey', '-xt'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 24 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return new Map(out.split('\n').map((l) => l.trim().split(/\s+/)).filter((p) => p.length === 2).map(([key, title]) => [title!, key!]));
}

/** What a format or Open Babel cannot carry, so the structure is left out for that format. */
// Open Babel reads the 2D geometry of an eight-membered ring's double bonds as cis/trans
// stereo and adds a /b layer that the structure (and RDKit's InChI) does not have.
const COT = { reason: 'Open Babel perceives ring double-bond stereo from 2D coordinates in cyclooctatetraene', skip: (r: Rec) => r.name === 'cyclooctatetraene' };
const EXCLUDED: Partial<Record<TextOutput, { reason: string; skip: (r: Rec) => boolean }>> = {
  molfile: COT,
  sdf: COT,
  cml: COT,
  // mol2 has no isotopes, radicals or stereo flags (stereo only from 3D coordinates), and
  // Open Babel reads formal charges from SYBYL atom types, not from the charge column we write.
  mol2: {
    reason: 'mol2 carries no isotopes, radicals, 2D stereo, or charges Open Babel reads as formal',
    skip: (r) => COT.skip(r) || /\/[tbiqp]/.test(r.inchi) || /M {2}(CHG|RAD)/.test(r.molfile),
  },
};

/** How each format is fed to Open Babel: several records in one input, titled by index. */
const BATCH: Array<[TextOutput, string, (r: Rec) => string]> = [
  ['smiles', 'smi', (r) => `${r.smiles} ${r.title}\n`],
  ['molfile', 'sdf', (r) => writeStructure(r, 'molfile') + '$$$$\n'],
  ['sdf', 'sdf', (r) => writeStructure(r, 'sdf')],
  ['mol2', 'mol2', (r) => writeStructure(r, 'mol2')],
];

describe('chem: every written format re-read by Open Babel gives the same InChIKey', function () {
  this.timeout(300_000);
  let records: Rec[];
  before(async () => {
    await initChem(['inchi', 'cml', 'cdxml']);
    records = STRUCTURES.map(([name, smiles], i) => ({ ...parseStructure(smiles, 'smiles'), title: `s${i}`, name }));
  });

  it('covers at least 50 structures, among them metals, charges, isotopes, stereo, heteroaromatics and salts', () => {
    expect(records.length).to.be.at.least(50);
    expect(records.filter((r) => /(Pt|Cu|Co|Fe|Hg|Sn|Zn)(?![a-z])/.test(r.formula)).length, 'metals').to.be.at.least(5);
    expect(records.filter((r) => /\/i/.test(r.inchi)).length, 'isotopes').to.be.at.least(5);
    expect(records.filter((r) => /\/[tb]/.test(r.inchi)).length, 'stereo').to.be.at.least(10);
    expect(records.filter((r) => r.smiles.includes('.')).length, 'salts').to.be.at.least(5);
  });

  for (const [output, format, write] of BATCH) {
    it(`${output}${EXCLUDED[output] ? ` (excluded where ${EXCLUDED[output].reason})` : ''}`, () => {
      const kept = records.filter((r) => !EXCLUDED[output]?.skip(r));
      const keys = keysByTitle(format, kept.map(write).join(''));
      const wrong = kept.filter((r) => keys.get(r.title) !== r.inchiKey).map((r) => `${r.name} (${r.smiles}): ${keys.get(r.title) ?? 'not read'} != ${r.inchiKey}`);
      expect(wrong).to.deep.equal([]);
      expect(kept.length).to.be.at.least(output === 'mol2' ? 40 : 120);
    });
  }

  it(`cml (excluded where ${COT.reason})`, () => {
    // One <cml> document of all molecules, each titled by its index (Open Babel reads several).
    const kept = records.filter((r) => !COT.skip(r));
    const molecules = kept.map((r) => writeStructure(r, 'cml').replace(/^[\s\S]*?<molecule[^>]*>/, `<molecule title="${r.title}">`).replace(/<\/molecule>[\s\S]*$/, '</molecule>'));
    const keys = keysByTitle('cml', `<?xml version="1.0"?>\n<cml>\n${molecules.join('\n')}\n</cml>\n`);
    const wrong = kept.filter((r) => keys.get(r.title) !== r.inchiKey).map((r) => `${r.name}: ${keys.get(r.title) ?? 'not read'} != ${r.inchiKey}`);
    expect(wrong).to.deep.equal([]);
  });

  it('inchi and inchikey: Open Babel derives from the InChI we write, and from our SMILES, the InChIKey we write', () => {
    const fromSmiles = keysByTitle('smi', records.map((r) => `${r.smiles} ${r.title}\n`).join(''));
    // Open Babel's InChI reader takes no titles: one key per line, in order.
    const fromInchi = execFileSync('obabel', ['-iinchi', '-oinchikey'], { input: records.map((r) => writeStructure(r, 'inchi')).join(''), encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim().split('\n');
    expect(fromInchi).to.have.length(records.length);
    records.forEach((r, i) => {
      const written = writeStructure(r as StructureRecord, 'inchikey').trim();
      expect(written, r.name).to.equal(fromSmiles.get(r.title));
      expect(fromInchi[i], r.name).to.equal(written);
    });
  });

  // xyz is not here: it carries no bonds, charges or bond orders, so no toolkit re-reads
  // the structure from it (we refuse it as input, parse.ts); its coordinates are checked
  // in the 3D tests (embedding.test.ts, chemStructures.test.ts).
});
