# Baseline of the search bench's substructure rows: RDKit (Debian python3-rdkit) screening
# with its pattern fingerprint and matching with HasSubstructMatch, on molecules parsed
# (and fingerprinted) before the clock starts, one process per core, each over its share.
# Usage: substructureBaseline.py SMILES_FILE; prints {"cores": n} once the molecules are
# parsed, then answers each line of stdin, a JSON [kind, text], with one line of JSON:
# {"hits": [indexes into the file's lines], "seconds": median of 3 runs, "screened": n}.
import json
import os
import statistics
import sys
import time
from multiprocessing import Pool

from rdkit import Chem, DataStructs, RDLogger

RDLogger.DisableLog('rdApp.*')
BITS = 2048
SMILES = open(sys.argv[1]).read().split('\n')
MOLS = [Chem.MolFromSmiles(s) if s else None for s in SMILES]
FPS = [Chem.PatternFingerprint(m, BITS) if m is not None else None for m in MOLS]


def query_of(kind, text):
    # As the service reads a SMILES query: RDKit's molecule, without the radicals the
    # sanitiser gives under-valent bracket atoms (test/helpers/rdkitPython.ts).
    if kind == 'smarts':
        return Chem.MolFromSmarts(text)
    q = Chem.MolFromSmiles(text)
    for a in q.GetAtoms():
        a.SetNumRadicalElectrons(0)
    return q


def search(job):
    kind, text, lo, hi = job
    q = query_of(kind, text)
    qfp = Chem.PatternFingerprint(q, BITS)
    hits, screened = [], 0
    for i in range(lo, hi):
        fp = FPS[i]
        if fp is None or not DataStructs.AllProbeBitsMatch(qfp, fp):
            continue
        screened += 1
        if MOLS[i].HasSubstructMatch(q):
            hits.append(i)
    return hits, screened


if __name__ == '__main__':
    cores = os.cpu_count() or 1
    step = (len(MOLS) + cores - 1) // cores
    with Pool(cores) as pool:
        print(json.dumps({'cores': cores}), flush=True)
        for line in sys.stdin:
            kind, text = json.loads(line)
            jobs = [(kind, text, lo, min(lo + step, len(MOLS))) for lo in range(0, len(MOLS), step)]
            times = []
            for _ in range(3):
                start = time.perf_counter()
                parts = pool.map(search, jobs)
                times.append(time.perf_counter() - start)
            print(json.dumps({'hits': [i for h, _ in parts for i in h], 'screened': sum(s for _, s in parts), 'seconds': statistics.median(times)}), flush=True)
