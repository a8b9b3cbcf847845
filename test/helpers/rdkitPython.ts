// RDKit's Python (Debian python3-rdkit) as an independent judge of substructure search:
// another build of the toolkit, driven through its own API, decides which structures hold
// which query.
import { execFileSync } from 'node:child_process';

/**
 * How the judge reads a query: 'smarts' by MolFromSmarts; 'smiles' by MolFromSmiles as a
 * query molecule, without the radicals the sanitiser gives an under-valent bracket atom of
 * a fragment ([N+] alone, the N of [N+](=O)[O-]); 'smiles-sanitised' by MolFromSmiles as is.
 */
export type JudgeKind = 'smarts' | 'smiles' | 'smiles-sanitised';

const SCRIPT = `
import sys, json
from rdkit import Chem
job = json.load(sys.stdin)
mols = [Chem.MolFromSmiles(s) for s in job['structures']]
def query(kind, text):
    if kind == 'smarts':
        return Chem.MolFromSmarts(text)
    q = Chem.MolFromSmiles(text)
    if kind == 'smiles':
        for a in q.GetAtoms():
            a.SetNumRadicalElectrons(0)
    return q
out = []
for kind, text in job['queries']:
    q = query(kind, text)
    out.append([i for i, m in enumerate(mols) if m.HasSubstructMatch(q)])
print(json.dumps(out))
`;

/** For each query, the indexes of `structures` (SMILES) that contain it, in order. */
export function rdkitSubstructureHits(structures: readonly string[], queries: ReadonlyArray<[JudgeKind, string]>): number[][] {
  const out = execFileSync('/usr/bin/python3', ['-c', SCRIPT], { input: JSON.stringify({ structures, queries }), encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], timeout: 60_000 });
  return JSON.parse(out) as number[][];
}

const TANIMOTO = `
import sys, json
from rdkit import Chem, DataStructs
from rdkit.Chem import AllChem
job = json.load(sys.stdin)
fp = lambda s: AllChem.GetMorganFingerprintAsBitVect(Chem.MolFromSmiles(s), job['radius'], nBits=job['bits'])
train = [fp(s) for s in job['training']]
print(json.dumps([DataStructs.BulkTanimotoSimilarity(fp(q), train) for q in job['queries']]))
`;

/** Tanimoto similarity of each query to each training structure (SMILES), on RDKit Python's Morgan bit vectors. */
export function rdkitTanimoto(queries: readonly string[], training: readonly string[], radius = 2, bits = 2048): number[][] {
  const out = execFileSync('/usr/bin/python3', ['-c', TANIMOTO], { input: JSON.stringify({ queries, training, radius, bits }), encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], timeout: 60_000 });
  return JSON.parse(out) as number[][];
}
