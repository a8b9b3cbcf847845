# Baseline of bench/forest.ts: Morgan fingerprints (radius 2, 2048 bits) of kazius by
# RDKit, written to the file named by argv[1] for the TypeScript side to learn from, and
# scikit-learn's RandomForestClassifier(n_estimators=100, n_jobs=2) timed on them: once on
# every row, once on the holdout split (every fifth row held out) with its balanced accuracy.
# Run with Debian's /usr/bin/python3 (python3-sklearn, python3-rdkit).
import csv, json, sys, time
import numpy as np
from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import balanced_accuracy_score

RDLogger.DisableLog('rdApp.*')
source, out = sys.argv[1], sys.argv[2]
X, y = [], []
for smiles, label in list(csv.reader(open(source)))[1:]:
    mol = Chem.MolFromSmiles(smiles)
    if mol is None or label == '':
        continue
    X.append(np.array(list(AllChem.GetMorganFingerprintAsBitVect(mol, 2, nBits=2048)), dtype=np.uint8))
    y.append(int(label))
X, y = np.array(X), np.array(y)
with open(out, 'w') as f:
    f.write('\n'.join(''.join(map(str, r)) + ' ' + str(v) for r, v in zip(X, y)))
best = float('inf')
for _ in range(2):
    t = time.time()
    RandomForestClassifier(n_estimators=100, n_jobs=2, random_state=1).fit(X, y)
    best = min(best, time.time() - t)
test = np.arange(len(y)) % 5 == 4
model = RandomForestClassifier(n_estimators=100, n_jobs=2, random_state=1).fit(X[~test], y[~test])
print(json.dumps({'rows': int(len(y)), 'fit_seconds': best, 'holdout_ba': balanced_accuracy_score(y[test], model.predict(X[test]))}))
