"""RDKit + scikit-learn baseline of bench/validationKazius.ts: Morgan fingerprints
(radius 2, 2048 bits), random forest (100 trees, sqrt features) and kNN (k 5, Jaccard =
1 - Tanimoto, distance-weighted), trained and tested on the folds our service used.
Prints one JSON line per learner: seconds for the 10 folds (fingerprints excluded)
and the pooled accuracy, balanced accuracy, MCC and AUC."""
import csv, json, sys, time
import numpy as np
from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem
from sklearn.ensemble import RandomForestClassifier
from sklearn.neighbors import KNeighborsClassifier
from sklearn.metrics import accuracy_score, balanced_accuracy_score, matthews_corrcoef, roc_auc_score

RDLogger.DisableLog('rdApp.*')
rows = list(csv.reader(open(sys.argv[1])))[1:]
folds = json.load(open(sys.argv[2]))
assert len(folds) == len(rows), (len(folds), len(rows))
X = np.zeros((len(rows), 2048), dtype=bool)
ok = np.zeros(len(rows), dtype=bool)
for i, (smiles, _) in enumerate(rows):
    m = Chem.MolFromSmiles(smiles)
    if m is None:
        continue
    fp = AllChem.GetMorganFingerprintAsBitVect(m, 2, nBits=2048)
    X[i, list(fp.GetOnBits())] = True
    ok[i] = True
y = np.array([int(r[1]) for r in rows])
folds = np.array(folds)
for name, make in [('knn', lambda: KNeighborsClassifier(n_neighbors=5, metric='jaccard', weights='distance')),
                   ('random-forest', lambda: RandomForestClassifier(n_estimators=100, max_features='sqrt', random_state=1, n_jobs=1))]:
    pred = np.full(len(rows), -1)
    score = np.zeros(len(rows))
    t = time.time()
    for f in range(folds.max() + 1):
        train = (folds != f) & ok
        test = (folds == f) & ok
        model = make().fit(X[train], y[train])
        pred[test] = model.predict(X[test])
        score[test] = model.predict_proba(X[test])[:, 1]
    seconds = time.time() - t
    done = pred >= 0
    print(json.dumps({'learner': f'scikit-learn {name}', 'seconds': round(seconds, 1), 'n': int(done.sum()),
                      'accuracy': accuracy_score(y[done], pred[done]), 'balancedAccuracy': balanced_accuracy_score(y[done], pred[done]),
                      'mcc': matthews_corrcoef(y[done], pred[done]), 'auc': roc_auc_score(y[done], score[done])}))
