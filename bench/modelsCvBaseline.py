# Baseline of bench/modelsCv.ts: scikit-learn random forest (100 trees) on RDKit Morgan
# fingerprints (radius 2, 2048 bits) over the same rows and the same 5 folds our trainer
# used (argv[1]: JSON with smiles, y, folds, regression). Prints one JSON line. With 'knn'
# in the JSON instead: kNN (k 5, Jaccard = 1 - Tanimoto, distance-weighted) over those folds,
# timed without the fingerprints.
# Run with Debian's /usr/bin/python3 (python3-sklearn, python3-rdkit).
import json, sys, numpy as np
from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.metrics import balanced_accuracy_score, roc_auc_score, r2_score, mean_squared_error
RDLogger.DisableLog('rdApp.*')
d = json.load(open(sys.argv[1]))
X = np.array([np.array(list(AllChem.GetMorganFingerprintAsBitVect(Chem.MolFromSmiles(s), 2, nBits=2048))) for s in d['smiles']])
y = np.array(d['y']); folds = np.array(d['folds'])
if d.get('knn'):
    import time
    from sklearn.neighbors import KNeighborsClassifier
    Xb = X.astype(bool); pred = np.zeros(len(y)); t = time.time()
    for f in range(folds.max() + 1):
        tr, te = folds != f, folds == f
        pred[te] = KNeighborsClassifier(n_neighbors=5, metric='jaccard', weights='distance').fit(Xb[tr], y[tr]).predict(Xb[te])
    print(json.dumps({'seconds': time.time() - t, 'ba': balanced_accuracy_score(y, pred)})); sys.exit(0)
pred = np.zeros(len(y)); score = np.zeros(len(y))
for f in range(folds.max() + 1):
    tr, te = folds != f, folds == f
    if d['regression']:
        m = RandomForestRegressor(n_estimators=100, max_features=1/3, random_state=1, n_jobs=2).fit(X[tr], y[tr]); pred[te] = m.predict(X[te])
    else:
        m = RandomForestClassifier(n_estimators=100, random_state=1, n_jobs=2).fit(X[tr], y[tr]); pred[te] = m.predict(X[te]); score[te] = m.predict_proba(X[te])[:, 1]
if d['regression']:
    print(json.dumps({'sklearn': 'rf', 'n': len(y), 'r2': r2_score(y, pred), 'rmse': mean_squared_error(y, pred) ** 0.5}))
else:
    print(json.dumps({'sklearn': 'rf', 'n': len(y), 'ba': balanced_accuracy_score(y, pred), 'auc': roc_auc_score(y, score)}))
