# Baseline of bench/forest.ts: Morgan fingerprints (radius 2, 2048 bits) of kazius by
# RDKit, written to the file named by argv[2] for the TypeScript side to learn from, and
# scikit-learn's RandomForestClassifier(n_estimators=100, n_jobs=argv[3]) timed on them
# (best of 2, once with the fingerprints' time added); then on the holdout split (every
# fifth row held out) its balanced accuracy on those bits and on the bits plus RDKit's
# MACCS keys. Seed 1. Run with Debian's /usr/bin/python3 (python3-sklearn, python3-rdkit).
import csv, json, sys, time
import numpy as np
from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import AllChem, MACCSkeys
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import balanced_accuracy_score

RDLogger.DisableLog('rdApp.*')
source, out, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])


def bits(fp):
    a = np.zeros((fp.GetNumBits(),), dtype=np.uint8)
    DataStructs.ConvertToNumpyArray(fp, a)
    return a


t = time.time()
X, M, y = [], [], []
for smiles, label in list(csv.reader(open(source)))[1:]:
    mol = Chem.MolFromSmiles(smiles)
    if mol is None or label == '':
        continue
    X.append(bits(AllChem.GetMorganFingerprintAsBitVect(mol, 2, nBits=2048)))
    M.append(bits(MACCSkeys.GenMACCSKeys(mol)))
    y.append(int(label))
X, M, y = np.array(X), np.array(M), np.array(y)
fingerprint_seconds = time.time() - t
with open(out, 'w') as f:
    f.write('\n'.join(''.join(map(str, r)) + ' ' + str(v) for r, v in zip(X, y)))
best = float('inf')
for _ in range(2):
    t = time.time()
    RandomForestClassifier(n_estimators=100, n_jobs=jobs, random_state=1).fit(X, y)
    best = min(best, time.time() - t)
test = np.arange(len(y)) % 5 == 4


def holdout(features):
    model = RandomForestClassifier(n_estimators=100, n_jobs=jobs, random_state=1).fit(features[~test], y[~test])
    return balanced_accuracy_score(y[test], model.predict(features[test]))


print(json.dumps({'rows': int(len(y)), 'fit_seconds': best, 'fingerprint_seconds': fingerprint_seconds,
                  'holdout_ba': holdout(X), 'holdout_ba_maccs': holdout(np.hstack([X, M]))}))
