// task=auto against scikit-learn's type_of_target (Debian python3-sklearn): classes where
// it says binary or multiclass (up to MAX_INTEGER_CLASSES distinct integers), regression
// where it says continuous; the reason names the rule.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { chooseTask, MAX_INTEGER_CLASSES } from '../../../src/algorithms/learning/taskChoice.ts';
import type { Cell, Table } from '../../../src/algorithms/table.ts';

/** type_of_target of each list, as Python values (numbers as floats when written with a point, text, booleans). */
function typeOfTarget(cases: ReadonlyArray<readonly unknown[]>): string[] {
  const script = 'import sys, json\nfrom sklearn.utils.multiclass import type_of_target\nimport numpy as np\n'
    + 'print(json.dumps([type_of_target(np.array(c, dtype=object) if any(isinstance(v, str) for v in c) else np.array(c)) for c in json.load(sys.stdin)]))';
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(cases), encoding: 'utf8', timeout: 60_000 })) as string[];
}

// How the CSV reader hands each case over: numbers as numbers, text (booleans too) as strings.
const CASES: Array<{ name: string; python: unknown[]; cells: Cell[] }> = [
  { name: 'integers 0/1', python: [0, 1, 1, 0], cells: [0, 1, 1, 0] },
  { name: 'Ames-style 0/1/2', python: [0, 1, 2, 1, 0, 2], cells: [0, 1, 2, 1, 0, 2] },
  { name: 'integers written as 1.0, 2.0, 3.0', python: [1.0, 2.0, 3.0, 1.0], cells: [1, 2, 3, 1] },
  { name: 'negative codes -1/1', python: [-1, 1, 1], cells: [-1, 1, 1] },
  { name: 'ten distinct integers', python: [...Array(10).keys()], cells: [...Array(10).keys()] },
  { name: 'two non-integer values', python: [0.5, 1.5, 0.5], cells: [0.5, 1.5, 0.5] },
  { name: 'measurements', python: [1.25, 3.5, 2.0, 7.75], cells: [1.25, 3.5, 2, 7.75] },
  { name: 'one non-integer among integers', python: [1, 2, 2.5], cells: [1, 2, 2.5] },
  { name: 'text classes', python: ['active', 'inactive', 'active'], cells: ['active', 'inactive', 'active'] },
  { name: 'three text classes', python: ['low', 'mid', 'high'], cells: ['low', 'mid', 'high'] },
  { name: 'booleans', python: [true, false, true], cells: ['true', 'false', 'true'] },
];

const table = (cells: readonly Cell[]): Table => ({
  datasetUri: 'd', compounds: cells.map((_, i) => `c${i}`), smiles: cells.map(() => 'C'),
  columns: [{ uri: 'y', title: 'y', numeric: cells.every((v) => typeof v === 'number') }], values: cells.map((v) => [v]),
});

const both = ['classification', 'regression'] as const;

describe('task=auto follows scikit-learn\'s type_of_target', () => {
  const judged = typeOfTarget([...CASES.map((c) => c.python), [...Array(15).keys()]]);

  for (const [i, c] of CASES.entries()) {
    it(`${c.name}: as type_of_target says`, () => {
      const expected = judged[i] === 'continuous' ? 'regression' : 'classification';
      expect(['binary', 'multiclass', 'continuous'], judged[i]).to.include(judged[i]);
      const choice = chooseTask(table(c.cells), 0, both);
      expect(choice.task, `type_of_target: ${judged[i]}`).to.equal(expected);
      expect(choice.reason).to.contain(judged[i] === 'continuous' ? 'continuous' : judged[i]);
    });
  }

  it(`more than ${MAX_INTEGER_CLASSES} distinct integers are a quantity, though type_of_target says multiclass`, () => {
    expect(judged[CASES.length]).to.equal('multiclass');
    const choice = chooseTask(table([...Array(15).keys()]), 0, both);
    expect(choice).to.deep.equal({ task: 'regression', reason: `the endpoint's values are 15 distinct integers, more than ${MAX_INTEGER_CLASSES}: a quantity, not classes` });
  });

  it('task= overrides, and the reason says so and what auto would have chosen', () => {
    const choice = chooseTask(table([0, 1, 2, 1]), 0, both, 'regression');
    expect(choice.task).to.equal('regression');
    expect(choice.reason).to.match(/^task=regression was asked \(auto would choose classification: .*3 distinct integers/);
  });

  it('a regression-only learner regresses integer codes and says why', () => {
    const choice = chooseTask(table([0, 1, 2, 1]), 0, ['regression']);
    expect(choice.task).to.equal('regression');
    expect(choice.reason).to.contain('classes by scikit-learn\'s type_of_target (multiclass), but this algorithm does regression only');
  });
});
