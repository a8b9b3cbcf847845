# Baseline of bench/compounds.ts's 3D rows: RDKit's ETKDGv3 embedding and MMFF94
# minimisation (1,000 iterations, as the service's force field clean-up) of each SMILES on
# stdin, one per line, timed per molecule in process. Prints a JSON list of milliseconds.
# Run with Debian's /usr/bin/python3 (python3-rdkit).
import json, sys, time
from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem

RDLogger.DisableLog('rdApp.*')
out = []
for smiles in sys.stdin.read().split():
    t = time.perf_counter()
    mol = Chem.AddHs(Chem.MolFromSmiles(smiles))
    params = AllChem.ETKDGv3()
    params.randomSeed = 4242
    AllChem.EmbedMolecule(mol, params)
    AllChem.MMFFOptimizeMolecule(mol, maxIters=1000)
    out.append((time.perf_counter() - t) * 1000)
print(json.dumps(out))
