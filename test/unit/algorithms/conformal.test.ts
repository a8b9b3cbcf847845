// The conformal arithmetic against hand-computed values (quantile rank, p-values with ties,
// Mondrian calibration, normalised residuals), and coverage on exchangeable draws against
// the level it promises.
import { expect } from 'chai';
import { calibrate, halfWidth, pValue, region, setText } from '../../../src/algorithms/learning/conformal.ts';
import { seededRng } from '../../../src/algorithms/ml/rng.ts';
import { algorithmById } from '../../../src/algorithms/catalogue.ts';
import { withDefaults } from '../../../src/algorithms/params.ts';
import { predictWith, trainModel } from '../../../src/algorithms/learning/trainer.ts';
import type { Table } from '../../../src/algorithms/table.ts';

describe('conformal', () => {
  const tenths = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

  it('half-width is the ceil(level (n + 1))-th smallest residual, unbounded when n is too small', () => {
    expect(halfWidth(tenths, 0.8)).to.equal(0.9); // ceil(8.8) = 9
    expect(halfWidth(tenths, 0.9)).to.equal(1); // ceil(9.9) = 10
    expect(halfWidth(tenths, 0.5)).to.equal(0.6); // ceil(5.5) = 6
    expect(halfWidth(tenths, 0.95)).to.equal(Infinity); // ceil(10.45) = 11 > 10
    expect(halfWidth(tenths, 10 / 11)).to.equal(1); // exactly 10, not 11 by rounding
  });

  it('p-value is (#{scores >= score} + 1) / (n + 1), ties counted', () => {
    expect(pValue([0.1, 0.2, 0.3, 0.4], 0.25)).to.equal(3 / 5);
    expect(pValue([0.1, 0.2, 0.3, 0.4], 0.5)).to.equal(1 / 5);
    expect(pValue([0.1, 0.2, 0.3, 0.4], 0)).to.equal(1);
    expect(pValue([0.2, 0.2, 0.3], 0.2)).to.equal(1);
    expect(pValue([], 0.7)).to.equal(1);
  });

  it('Mondrian: each class is ranked among its own compounds only', () => {
    // Class 0 compounds scored 1 - P(0): 0.1, 0.4, 0.2; class 1 compounds 1 - P(1): 0.3, 0.6.
    const y = [0, 0, 0, 1, 1];
    const p = [[0.9, 0.1], [0.6, 0.4], [0.8, 0.2], [0.3, 0.7], [0.6, 0.4]].map((probabilities) => ({ value: probabilities[0]! > 0.5 ? 0 : 1, probabilities }));
    const cal = calibrate(y, p, 2, 5);
    expect(cal.byClass).to.deep.equal([[0.1, 0.2, 0.4], [0.3, 0.6]]);
    // A compound with P = (0.7, 0.3): class 0 scores 0.3 (ranked above 0.4 only: p = 2/4),
    // class 1 scores 0.7 (above both: p = 1/3).
    const r = region(cal, { value: 0, probabilities: [0.7, 0.3] }, 2, 0.7);
    expect(r.pValues).to.deep.equal([2 / 4, 1 / 3]);
    expect(r.set).to.deep.equal([0, 1]); // both above 0.3
    expect(region(cal, { value: 0, probabilities: [0.7, 0.3] }, 2, 0.6).set).to.deep.equal([0]); // 1/3 is not above 0.4
    // No probabilities: the positive-class score stands in for a binary learner.
    expect(region(cal, { value: 0, score: 0.3 }, 2, 0.7).pValues).to.deep.equal([2 / 4, 1 / 3]);
  });

  it('regression: residuals normalised by difficulty + 0.2 when the learner reports one', () => {
    const plain = calibrate([1, 2, 3], [{ value: 1.5 }, { value: 2 }, { value: 2 }], 0, 3);
    expect(plain.residuals).to.deep.equal([0, 0.5, 1]);
    expect(plain.normalised).to.equal(undefined);
    const norm = calibrate([1, 2, 3], [{ value: 1.5, difficulty: 0.3 }, { value: 2, difficulty: 0 }, { value: 2, difficulty: 0.8 }], 0, 3);
    expect(norm.residuals).to.deep.equal([0, 1, 1]); // 0.5 / 0.5, 0 / 0.2, 1 / 1
    // n = 3 calibrates level 0.75 (rank 3): half-width 1 x (0.3 + 0.2).
    const r = region(norm, { value: 10, difficulty: 0.3 }, 0, 0.75);
    expect(r.lower).to.be.closeTo(9.5, 1e-12);
    expect(r.upper).to.be.closeTo(10.5, 1e-12);
    expect(region(norm, { value: 10, difficulty: 0.3 }, 0, 0.8).upper).to.equal(Infinity);
  });

  it('on exchangeable draws the interval covers as often as the level says', () => {
    const rng = seededRng(7);
    const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
    const cal = calibrate(Array.from({ length: 2000 }, gauss), Array.from({ length: 2000 }, () => ({ value: 0 })), 0, 5);
    for (const level of [0.8, 0.9, 0.95]) {
      const test = Array.from({ length: 20000 }, gauss);
      const r = region(cal, { value: 0 }, 0, level);
      const covered = test.filter((v) => v >= r.lower! && v <= r.upper!).length / test.length;
      expect(covered, String(level)).to.be.within(level - 0.015, level + 0.015);
    }
  });

  it('sets as text: braces, "; " between classes, {} for the empty set', () => {
    expect(setText(['0', '1'])).to.equal('{0; 1}');
    expect(setText([])).to.equal('{}');
  });

  // y = 2x + noise on one numeric feature; classes by the sign of x + noise.
  const rng = seededRng(3);
  const xs = Array.from({ length: 60 }, () => 4 * rng() - 2);
  const table = (y: Array<number | string>): Table => ({
    datasetUri: 'http://example.org/dataset/c', compounds: xs.map((_, i) => `http://example.org/compound/${i + 1}`), smiles: xs.map(() => ''),
    columns: [{ uri: 'http://example.org/feature/y', title: 'y', numeric: typeof y[0] === 'number' }, { uri: 'http://example.org/feature/x', title: 'x', numeric: true }],
    values: xs.map((x, i) => [y[i]!, x]),
  });
  const regression = table(xs.map((x) => 2 * x + rng() - 0.5));
  const classes = table(xs.map((x) => (x + 0.6 * (rng() - 0.5) > 0 ? 'active' : 'inactive')));
  for (const [id, learner, data] of [['knn', 'knn', regression], ['random-forest', 'randomForest', regression], ['mlr', 'linearRegression', regression],
    ['knn', 'knn', classes], ['random-forest', 'randomForest', classes], ['logistic-regression', 'logisticRegression', classes]] as const) {
    const kind = data === regression ? 'regression' : 'classification';
    it(`wraps ${learner} (${kind}): calibrated on every training compound, a region per prediction`, async () => {
      const params = withDefaults(algorithmById(id)!.params, { folds: 5, trees: 20, representation: 'features' });
      const model = await trainModel({ learner, table: data, target: 0, params, algorithmUri: `http://example.org/algorithm/${id}`, fallback: 'descriptors' });
      const cal = model.calibration!;
      expect(cal.method).to.equal('cross-conformal');
      const [p] = await predictWith(model, { ...data, compounds: ['q'], values: [[null, 1]] }, { confidenceLevel: 0.8 });
      if (kind === 'regression') {
        expect(cal.residuals).to.have.length(60);
        expect(cal.normalised !== undefined).to.equal(learner === 'knn');
        expect(p!.lower).to.be.below(p!.value as number);
        expect(p!.upper).to.be.above(p!.value as number);
        // The truth at x = 1 is 2 +- 0.5; the interval is for a new measurement, so it holds it.
        expect(p!.lower).to.be.below(2);
        expect(p!.upper).to.be.above(2);
      } else {
        expect(cal.byClass!.map((v) => v.length).reduce((a, b) => a + b)).to.equal(60);
        expect(p!.pValues).to.have.length(2);
        // x = 1 is clearly active: active is in the set, inactive is not.
        expect(p!.predictionSet).to.deep.equal(['active']);
      }
    });
  }
});
