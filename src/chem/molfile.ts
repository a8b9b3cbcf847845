// Checks a molfile's header and counts line before a toolkit sees it, so a broken file
// gets a report naming the line (STYLE §12), and sets the chiral flag that RDKit leaves 0.
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';

const bad = (message: string) => new BadRequest(`MDL molfile: ${message}`, { code: ERR.InvalidStructure });

/** Throws a report naming the first malformed line of a V2000/V3000 molfile. */
export function checkMolfile(text: string, offsetLine = 0): void {
  const lines = text.split(/\r?\n/);
  const at = (n: number) => `line ${n + 1 + offsetLine}`;
  const counts = lines[3];
  if (counts === undefined) throw bad(`expected a header of 3 lines and a counts line, got ${lines.length} line(s)`);
  if (/V3000/.test(counts)) {
    if (!lines.some((l) => l.startsWith('M  V30 COUNTS'))) throw bad(`${at(3)}: V3000 molfile without "M  V30 COUNTS" line`);
    return;
  }
  const atoms = Number(counts.slice(0, 3));
  const bonds = Number(counts.slice(3, 6));
  if (!/^[ \d]{6}/.test(counts) || !Number.isInteger(atoms) || !Number.isInteger(bonds) || counts.slice(0, 3).trim() === '') {
    throw bad(`${at(3)} (counts line) is malformed: "${counts.slice(0, 39)}"; expected atom and bond counts in columns 1-3 and 4-6`);
  }
  if (lines.length < 4 + atoms + bonds) {
    throw bad(`counts line (${at(3)}) announces ${atoms} atoms and ${bonds} bonds, but the file ends after ${lines.length} lines`);
  }
  // The length check above guarantees every atom and bond line exists.
  for (let i = 0; i < atoms; i++) {
    const l = lines[4 + i]!;
    if (!/^\s*-?\d+\.\d+\s+-?\d+\.\d+\s+-?\d+\.\d+\s+\S+/.test(l)) {
      throw bad(`${at(4 + i)}: atom ${i + 1} is malformed ("${l.slice(0, 40)}"); expected x y z symbol`);
    }
  }
  for (let i = 0; i < bonds; i++) {
    const l = lines[4 + atoms + i]!;
    const a = Number(l.slice(0, 3));
    const b = Number(l.slice(3, 6));
    if (!(a >= 1 && a <= atoms && b >= 1 && b <= atoms)) {
      throw bad(`${at(4 + atoms + i)}: bond ${i + 1} joins atoms "${l.slice(0, 6).trim()}", outside 1..${atoms}`);
    }
  }
}

/**
 * Sets the chiral flag: RDKit writes 0, which other toolkits (openchemlib) read as
 * "racemic"; our stereo is absolute (measured pitfall).
 */
export function setChiralFlag(molfile: string, chiral: boolean): string {
  const lines = molfile.split('\n');
  const counts = lines[3];
  if (counts === undefined) return molfile;
  const flag = chiral ? '  1' : '  0';
  if (/V3000/.test(counts)) {
    const i = lines.findIndex((l) => l.startsWith('M  V30 COUNTS'));
    if (i >= 0) lines[i] = lines[i]!.replace(/^(M {2}V30 COUNTS\s+\d+\s+\d+\s+\d+\s+\d+\s+)\d+/, `$1${chiral ? 1 : 0}`);
  } else if (counts.length >= 15) {
    lines[3] = counts.slice(0, 12) + flag + counts.slice(15);
  }
  return lines.join('\n');
}
