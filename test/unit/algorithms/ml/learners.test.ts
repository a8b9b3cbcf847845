import { expect } from 'chai';
import { auc, classificationStats, regressionStats } from '../../../../src/algorithms/ml/metrics.ts';
import { assignFolds } from '../../../../src/algorithms/ml/folds.ts';
import { chiSquare } from '../../../../src/algorithms/ml/chiSquare.ts';
import { fitForest, predictForest } from '../../../../src/algorithms/ml/forest.ts';
import { fitForestThreads } from '../../../../src/algorithms/ml/forestThreads.ts';
import { fitKnn, predictKnn, packBits } from '../../../../src/algorithms/ml/knn.ts';
import { FingerprintSet } from '../../../../src/search/fingerprintSet.ts';
import { fitLogistic, predictLogistic } from '../../../../src/algorithms/ml/logistic.ts';
import { seededRng } from '../../../../src/algorithms/ml/rng.ts';
import { growTree, matrixOf, predictTree } from '../../../../src/algorithms/ml/tree.ts';

describe('learning primitives', () => {
  it('computes accuracy, balanced accuracy, AUC and confusion counts', () => {
    const s = classificationStats([0, 0, 0, 1], [0, 0, 1, 1], [0.1, 0.2, 0.6, 0.9], 2);
    expect(s.accuracy).to.equal(0.75);
    expect(s.balancedAccuracy).to.be.closeTo((2 / 3 + 1) / 2, 1e-12);
    expect(s.auc).to.equal(1);
    expect(s.confusion).to.deep.equal([[2, 1], [0, 1]]);
    expect(auc([true, false], [0.5, 0.5])).to.equal(0.5);
  });

  it('computes R², RMSE and MAE', () => {
    const s = regressionStats([1, 2, 3], [1, 2, 4]);
    expect(s.rmse).to.be.closeTo(Math.sqrt(1 / 3), 1e-12);
    expect(s.mae).to.be.closeTo(1 / 3, 1e-12);
    expect(s.r2).to.be.closeTo(0.5, 1e-12);
  });

  it('assigns stratified folds reproducibly from the seed', () => {
    const y = [...Array(50).fill(0), ...Array(50).fill(1)];
    const a = assignFolds(y, 5, 7, true);
    expect(assignFolds(y, 5, 7, true)).to.deep.equal(a);
    expect(assignFolds(y, 5, 8, true)).not.to.deep.equal(a);
    for (let f = 0; f < 5; f++) {
      expect(a.filter((v, i) => v === f && y[i] === 1).length).to.equal(10);
    }
  });

  it('gives the chi-square statistic and p-value of a 2x2 table', () => {
    const r = chiSquare([[30, 10], [10, 30]]);
    expect(r.df).to.equal(1);
    expect(r.statistic).to.be.closeTo(20, 1e-9);
    expect(r.p).to.be.closeTo(7.74e-6, 1e-7);
    expect(chiSquare([[10, 10], [10, 10]]).p).to.be.closeTo(1, 1e-9);
  });

  it('Tanimoto similarity of packed bits (the kernel kNN scans with)', () => {
    const tanimoto = (a: number[], b: number[]) => {
      const set = new FingerprintSet(b.length, 1);
      set.set(0, b);
      return set.all(a)[0]!;
    };
    expect(tanimoto(packBits([1, 1, 0, 0]), packBits([1, 0, 1, 0]))).to.be.closeTo(1 / 3, 1e-12);
    expect(tanimoto(packBits([1, 1]), packBits([1, 1]))).to.equal(1);
  });

  // A noisy threshold concept: y = x0 + x1 > 1.
  const rng = seededRng(3);
  const X = Array.from({ length: 300 }, () => [rng(), rng(), rng()]);
  const y = X.map((x) => (x[0]! + x[1]! > 1 ? 1 : 0));

  it('a random forest learns a threshold concept and is reproducible from its seed', () => {
    const opt = { classes: 2, trees: 30, mtry: 0, maxDepth: 20, minLeaf: 1, seed: 5 };
    const forest = fitForest(X.slice(0, 200), y.slice(0, 200), opt);
    const correct = X.slice(200).filter((x, i) => (predictForest(forest, x)[1]! > 0.5 ? 1 : 0) === y[200 + i]).length;
    expect(correct / 100).to.be.greaterThan(0.85);
    expect(fitForest(X.slice(0, 200), y.slice(0, 200), opt)).to.deep.equal(forest);
  });

  it('a regression forest approximates a linear function', () => {
    const t = X.map((x) => 2 * x[0]! - x[2]!);
    const forest = fitForest(X.slice(0, 200), t.slice(0, 200), { classes: 0, trees: 30, mtry: 0, maxDepth: 20, minLeaf: 2, seed: 1 });
    const s = regressionStats(t.slice(200), X.slice(200).map((x) => predictForest(forest, x)[0]!));
    expect(s.r2).to.be.greaterThan(0.8);
  });

  it('kNN predicts with a confidence and flags queries outside the domain', () => {
    const m = fitKnn([[1, 1, 0, 0], [1, 1, 1, 0], [0, 0, 1, 1]], [0, 0, 1], { k: 1, classes: 2, minSimilarity: 0.6 });
    const near = predictKnn(m, [1, 1, 0, 0]);
    expect(near.value).to.equal(0);
    expect(near.inDomain).to.equal(true);
    expect(near.confidence).to.be.greaterThan(0.9);
    const far = predictKnn(m, [0, 0, 0, 1]);
    expect(far.value).to.equal(1);
    expect(far.inDomain).to.equal(false);
  });

  it('logistic regression separates a linear concept', () => {
    const m = fitLogistic(X.slice(0, 200), y.slice(0, 200), { classes: 2, iterations: 300, l2: 0.001, learningRate: 0.5 });
    const correct = X.slice(200).filter((x, i) => (predictLogistic(m, x)[1]! > 0.5 ? 1 : 0) === y[200 + i]).length;
    expect(correct / 100).to.be.greaterThan(0.85);
  });
  it('a split between two adjacent doubles keeps both sides non-empty (no NaN leaf)', () => {
    // (0.3 + 0.30000000000000004) / 2 rounds to 0.30000000000000004: a midpoint threshold
    // would send both rows left and leave an empty right leaf whose mean is 0/0.
    const lo = 0.3;
    const hi = 0.30000000000000004;
    const tree = growTree(matrixOf([[lo], [hi]], 1), Float64Array.from([0, 1]), Int32Array.from([0, 1]), { classes: 0, mtry: 1, maxDepth: 5, minLeaf: 1 }, seededRng(1));
    expect(tree.value.flat().every(Number.isFinite)).to.equal(true);
    expect(predictTree(tree, [lo])).to.deep.equal([0]);
    expect(predictTree(tree, [hi])).to.deep.equal([1]);
  });

  it('a forest grown in two worker threads over shared bit-packed fingerprints equals the one-thread forest, progress per tree', async function () {
    this.timeout(60_000);
    const rng = seededRng(3);
    const fps = Array.from({ length: 1000 }, () => Array.from({ length: 96 }, () => (rng() < 0.1 ? 1 : 0)));
    const labels = fps.map((r) => (r[0] || r[5] ? 1 : 0));
    const opt = { classes: 2, trees: 100, mtry: 0, maxDepth: 40, minLeaf: 1, seed: 7 };
    const steps: number[] = [];
    const threaded = await fitForestThreads(fps, labels, opt, (f) => steps.push(f), 2);
    expect(threaded).to.deep.equal(fitForest(fps, labels, opt));
    expect(steps).to.have.length(100);
    expect(steps[99]).to.equal(1);
  });
});
