// The figures of a validation against values worked out by hand (shown beside each) and
// by scikit-learn's and SciPy's formulas, never against our own output.
import { expect } from 'chai';
import { classificationFigures, matthews, regressionFigures, type Outcome } from '../../../src/validation/statistics.ts';
import { pairedTTest } from '../../../src/validation/pairedTest.ts';
import { crossvalidationFolds, trainingTestSplit } from '../../../src/validation/partition.ts';

const outcomes = (actual: number[], predicted: Array<number | null>, score?: number[]): Outcome[] =>
  actual.map((a, i) => ({ actual: a, predicted: predicted[i]!, score: score?.[i] }));

describe('validation statistics', () => {
  it('binary classification: TP 3, FN 1, TN 3, FP 1', () => {
    const f = classificationFigures(outcomes(
      [1, 1, 1, 0, 0, 0, 0, 1],
      [1, 0, 1, 0, 0, 1, 0, 1],
      [0.9, 0.4, 0.8, 0.2, 0.3, 0.6, 0.1, 0.7],
    ), 2);
    expect(f.n).to.equal(8);
    expect(f.accuracy).to.equal(6 / 8);
    expect(f.sensitivity).to.equal(3 / 4); // TP / (TP + FN)
    expect(f.specificity).to.equal(3 / 4); // TN / (TN + FP)
    expect(f.balancedAccuracy).to.equal(3 / 4);
    // (TP·TN − FP·FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN)) = (9 − 1) / sqrt(4⁴)
    expect(f.mcc).to.be.closeTo(0.5, 1e-12);
    // 15 of the 16 (positive, negative) pairs are ranked right: 0.4 is below 0.6.
    expect(f.auc).to.be.closeTo(15 / 16, 1e-12);
    expect(f.confusion).to.deep.equal([[3, 1], [1, 3]]);
  });

  it('counts compounds without a prediction apart', () => {
    const f = classificationFigures(outcomes([1, 0, 1], [1, 0, null], [0.9, 0.1, 0]), 2);
    expect(f.n).to.equal(2);
    expect(f.unpredicted).to.equal(1);
    expect(f.accuracy).to.equal(1);
  });

  it('three classes: MCC and balanced accuracy as scikit-learn computes them', () => {
    // sklearn.metrics.matthews_corrcoef([0,0,1,1,2,2,2,0], [0,1,1,1,2,0,2,0]) = 0.6428571428571429 (= 27/42)
    // sklearn.metrics.balanced_accuracy_score(same) = 0.7777777777777777 (= (2/3 + 1 + 2/3) / 3)
    const f = classificationFigures(outcomes([0, 0, 1, 1, 2, 2, 2, 0], [0, 1, 1, 1, 2, 0, 2, 0]), 3);
    expect(f.mcc).to.be.closeTo(0.6428571428571429, 1e-12);
    expect(f.balancedAccuracy).to.be.closeTo(0.7777777777777777, 1e-12);
    expect(f.sensitivity).to.be.NaN;
    expect(f.auc).to.be.NaN;
  });

  it('MCC is 0 when every compound is predicted the same class (scikit-learn convention)', () => {
    expect(matthews([[2, 0], [3, 0]])).to.equal(0);
  });

  it('regression: y = 1,2,3,4 predicted 2,2,3,5', () => {
    const f = regressionFigures(outcomes([1, 2, 3, 4], [2, 2, 3, 5]));
    // PRESS = 1 + 0 + 0 + 1 = 2; SS = 2.25 + 0.25 + 0.25 + 2.25 = 5
    expect(f.q2).to.be.closeTo(1 - 2 / 5, 1e-12);
    expect(f.rmse).to.be.closeTo(Math.sqrt(2 / 4), 1e-12);
    expect(f.mae).to.be.closeTo(2 / 4, 1e-12);
    // Pearson r = Sxy / sqrt(Sxx·Syy) = 5 / sqrt(5 · 6)
    expect(f.r2).to.be.closeTo(25 / 30, 1e-12);
  });

  it('paired t-test as scipy.stats.ttest_rel', () => {
    // ttest_rel([0.8,0.7,0.9,0.85,0.75], [0.7,0.72,0.8,0.8,0.7]) → statistic 2.54021158510848, p 0.06396653057897189
    const t = pairedTTest([0.8, 0.7, 0.9, 0.85, 0.75], [0.7, 0.72, 0.8, 0.8, 0.7]);
    expect(t.t).to.be.closeTo(2.54021158510848, 1e-10);
    expect(t.df).to.equal(4);
    expect(t.p).to.be.closeTo(0.06396653057897189, 1e-10);
    expect(t.meanDifference).to.be.closeTo(0.056, 1e-12);
  });
});

describe('validation partitions', () => {
  const y = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1];
  it('stratified folds keep the class balance and are the same for the same seed', () => {
    const folds = crossvalidationFolds(y, 2, 7, true);
    expect(folds).to.deep.equal(crossvalidationFolds(y, 2, 7, true));
    for (const f of [0, 1]) {
      expect(folds.filter((x, i) => x === f && y[i] === 0)).to.have.length(2);
      expect(folds.filter((x, i) => x === f && y[i] === 1)).to.have.length(3);
    }
    expect(crossvalidationFolds(y, 20, 7, true)).to.have.members([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a split keeps round(ratio · n) of each class for training', () => {
    const split = trainingTestSplit(y, 0.7, 3, true);
    // class 0: round(2.8) = 3 trained, 1 tested; class 1: round(4.2) = 4 trained, 2 tested
    expect(split.filter((f, i) => f === 0 && y[i] === 0)).to.have.length(1);
    expect(split.filter((f, i) => f === 0 && y[i] === 1)).to.have.length(2);
    expect(split.filter((f) => f === -1)).to.have.length(7);
    expect(split).to.deep.equal(trainingTestSplit(y, 0.7, 3, true));
    expect(split).to.not.deep.equal(trainingTestSplit(y, 0.7, 4, true));
  });
});
