// Measures 3D generation over kazius (shared/data/opentox-test/kazius.csv) as the service
// runs it for chemical/x-xyz: one conformer per structure, each checked (specified stereo
// kept, no atoms on top of each other, same InChIKey as the 2D structure when stereo is
// specified). Usage: node --import tsx scripts/kazius3d.ts [every-nth-row, default 1]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { initChem, parseStructure } from '../src/chem/index.ts';
import { generateConformers } from '../src/chem/conformers.ts';
import { inchiOfMolfile } from '../src/chem/write.ts';
import { readCtab } from '../src/chem/ctab.ts';
import { clashOf } from '../src/chem/embedding.ts';
import { rdkit } from '../src/chem/toolkits.ts';

const step = Number(process.argv[2] ?? 1);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const csv = [path.resolve(root, '../shared/data/opentox-test/kazius.csv'), '/work/shared/data/opentox-test/kazius.csv'].find((p) => {
  try { return readFileSync(p).length > 0; } catch { return false; }
})!;
const rows = readFileSync(csv, 'utf8').split(/\r?\n/).slice(1).filter(Boolean).map((l) => l.split(',')[0]);

await initChem();
generateConformers({ ...parseStructure('CCO', 'smiles'), count: 1 }); // warm-up
const times: number[] = [];
/** CPU time of this thread: on a shared machine wall time measures the other processes too. */
const cpuTimes: number[] = [];
const failures: string[] = [];
let stereoChecked = 0;
for (let i = 0; i < rows.length; i += step) {
  let p;
  const row = rows[i]!;
  try { p = parseStructure(row, 'smiles'); } catch { continue; }
  const started = performance.now();
  const cpu = process.cpuUsage();
  let made;
  try {
    made = generateConformers({ molfile: p.molfile, smiles: p.smiles, inchi: p.inchi, count: 1 });
  } catch (e) {
    failures.push(`row ${i + 2} ${row}: ${(e as Error).message}`);
    continue;
  }
  times.push(performance.now() - started);
  const used = process.cpuUsage(cpu);
  cpuTimes.push((used.user + used.system) / 1000);
  const [first] = made;
  if (!first) { failures.push(`row ${i + 2} ${row}: no conformer kept`); continue; }
  const clash = clashOf(readCtab(first.molfile).atoms);
  if (clash) failures.push(`row ${i + 2}: atoms ${clash.a} and ${clash.b} ${clash.distance.toFixed(2)} Å apart`);
  if (/\/[tb]/.test(p.inchi)) {
    stereoChecked++;
    const key = rdkit().get_inchikey_for_inchi(inchiOfMolfile(first.molfile));
    if (key !== p.inchiKey) failures.push(`row ${i + 2}: InChIKey ${key} != ${p.inchiKey}`);
  }
}
times.sort((a, b) => a - b);
cpuTimes.sort((a, b) => a - b);
const at = (list: number[], f: number) => list[Math.min(list.length - 1, Math.floor(f * list.length))]!.toFixed(0);
const q = (f: number) => at(times, f);
console.log(`${times.length} structures (every ${step}th of ${rows.length}), ${stereoChecked} with specified stereo`);
console.log(`wall time per structure: median ${q(0.5)} ms, p90 ${q(0.9)} ms, max ${q(1)} ms`);
console.log(`CPU time per structure: median ${at(cpuTimes, 0.5)} ms, p90 ${at(cpuTimes, 0.9)} ms, max ${at(cpuTimes, 1)} ms`);
console.log(`${failures.length} failures`);
for (const f of failures) console.log('  ' + f);
