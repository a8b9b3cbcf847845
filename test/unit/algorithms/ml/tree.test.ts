// A split between two neighbouring doubles must still separate them: their midpoint can
// round up to the larger value, which would send every row left and leave an empty leaf
// whose mean is NaN (descriptor values such as 2.96 and 2.9600000000000004 do this).
import { expect } from 'chai';
import { growTree, matrixOf, predictTree } from '../../../../src/algorithms/ml/tree.ts';
import { drawsOf, fitForest, predictForest } from '../../../../src/algorithms/ml/forest.ts';
import { seededRng } from '../../../../src/algorithms/ml/rng.ts';

// 1 + 2^-52 and 1 + 2^-51 are adjacent doubles; their midpoint is a tie that rounds to
// the even mantissa, the larger one.
const low = 1 + 2 ** -52;
const high = 1 + 2 ** -51;

describe('regression tree split between neighbouring doubles', () => {
  it('has no empty leaf: each row predicts its own value', () => {
    expect((low + high) / 2).to.equal(high); // the premise of the test
    const m = matrixOf([[low], [high]], 1);
    const y = Float64Array.from([0, 10]);
    const tree = growTree(m, y, Int32Array.from([0, 1]), { classes: 0, mtry: 1, maxDepth: 10, minLeaf: 1 }, seededRng(1));
    expect(predictTree(tree, [low])).to.deep.equal([0]);
    expect(predictTree(tree, [high])).to.deep.equal([10]);
  });

  it('gives a forest whose predictions are finite beyond the training values', () => {
    const forest = fitForest([[low], [high], [low], [high]], [0, 10, 1, 11], { classes: 0, trees: 10, mtry: 0, maxDepth: 10, minLeaf: 1, seed: 1 });
    // A value above both goes right at every split: into the empty leaf before the fix.
    expect(Number.isFinite(predictForest(forest, [2])[0])).to.equal(true);
  });
});

// Weighted draws of split candidates (forest.ts weights, tree.ts draws): a column of weight
// w is tried as often as w repeated columns would be.
describe('forest with per-column draw weights', () => {
  // Column 0 is the class; columns 1-49 are noise bits. With mtry 1 the root splits on
  // whichever usable column comes first in the draw.
  const rng = seededRng(7);
  const X = Array.from({ length: 200 }, (_, i) => [i % 2, ...Array.from({ length: 49 }, () => (rng() < 0.5 ? 1 : 0))]);
  const y = X.map((r) => r[0]!);
  const rootsOn0 = (weights?: number[]) => fitForest(X, y, { classes: 2, trees: 60, mtry: 1, maxDepth: 40, minLeaf: 1, seed: 1, ...(weights ? { weights } : {}) }).trees.filter((t) => t.feature[0] === 0).length;

  it('tries a weighted column at the root about as often as its share of the draws', () => {
    expect(drawsOf([2, 1, 3])).to.deep.equal([0, 0, 1, 2, 2, 2]);
    expect(drawsOf([1, 1, 1])).to.equal(undefined);
    // Unweighted: 1 in 50; column 0 weighted 50: about 1 in 2 (50 of 99 draws).
    expect(rootsOn0()).to.be.at.most(6);
    const weighted = rootsOn0([50, ...Array<number>(49).fill(1)]);
    expect(weighted).to.be.within(18, 42);
  });

  it('grows the same forest with every weight 1 as without weights', () => {
    const opt = { classes: 2, trees: 5, mtry: 0, maxDepth: 40, minLeaf: 1, seed: 3 };
    expect(fitForest(X, y, { ...opt, weights: Array<number>(50).fill(1) })).to.deep.equal(fitForest(X, y, opt));
  });
});
