// A split between two neighbouring doubles must still separate them: their midpoint can
// round up to the larger value, which would send every row left and leave an empty leaf
// whose mean is NaN (descriptor values such as 2.96 and 2.9600000000000004 do this).
import { expect } from 'chai';
import { growTree, matrixOf, predictTree } from '../../../../src/algorithms/ml/tree.ts';
import { fitForest, predictForest } from '../../../../src/algorithms/ml/forest.ts';
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
