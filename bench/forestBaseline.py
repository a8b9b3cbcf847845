# Baseline of bench/forest.ts: Morgan fingerprints (radius 2, 2048 bits) of kazius by
# RDKit, written to the file named by argv[2] for the TypeScript side to learn from, and
# scikit-learn's RandomForestClassifier(n_estimators=100, n_jobs=argv[3]) timed on them
# (best of 2, once with the fingerprints' time added); then on the holdout split (every
# fifth row held out) its balanced accuracy on those bits at seeds 1-5 (seed 1 first) and
# at seed 1 on the bits plus RDKit's MACCS keys, and plus the toxicophore SMARTS of
# argv[4] (a JSON list, matched by RDKit here), once and repeated five times (what
# toxicophore_weight=5, the default, stands for). Run with Debian's /usr/bin/python3 (python3-sklearn,
# python3-rdkit).
import csv, json, sys, time
import numpy as np
from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import AllChem, MACCSkeys
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import balanced_accuracy_score

RDLogger.DisableLog('rdApp.*')
source, out, jobs, smarts = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
queries = [Chem.MolFromSmarts(p) for p in smarts]


def bits(fp):
    a = np.zeros((fp.GetNumBits(),), dtype=np.uint8)
    DataStructs.ConvertToNumpyArray(fp, a)
    return a


t = time.time()
X, M, T, y = [], [], [], []
for smiles, label in list(csv.reader(open(source)))[1:]:
    mol = Chem.MolFromSmiles(smiles)
    if mol is None or label == '':
        continue
    X.append(bits(AllChem.GetMorganFingerprintAsBitVect(mol, 2, nBits=2048)))
    M.append(bits(MACCSkeys.GenMACCSKeys(mol)))
    T.append([1 if mol.HasSubstructMatch(q) else 0 for q in queries])
    y.append(int(label))
X, M, y = np.array(X), np.array(M), np.array(y)
fingerprint_seconds = time.time() - t
T = np.array(T, dtype=np.uint8)
with open(out, 'w') as f:
    f.write('\n'.join(''.join(map(str, r)) + ' ' + str(v) for r, v in zip(X, y)))
best = float('inf')
for _ in range(2):
    t = time.time()
    RandomForestClassifier(n_estimators=100, n_jobs=jobs, random_state=1).fit(X, y)
    best = min(best, time.time() - t)
test = np.arange(len(y)) % 5 == 4


def holdout(features, seed=1):
    model = RandomForestClassifier(n_estimators=100, n_jobs=jobs, random_state=seed).fit(features[~test], y[~test])
    return balanced_accuracy_score(y[test], model.predict(features[test]))


seeds = [holdout(X, s) for s in range(1, 6)]
print(json.dumps({'rows': int(len(y)), 'fit_seconds': best, 'fingerprint_seconds': fingerprint_seconds,
                  'holdout_ba': seeds[0], 'holdout_ba_seeds': seeds, 'holdout_ba_maccs': holdout(np.hstack([X, M])),
                  'holdout_ba_toxicophores': holdout(np.hstack([X, M, T])), 'holdout_ba_toxicophores5': holdout(np.hstack([X, M] + [T] * 5))}))
