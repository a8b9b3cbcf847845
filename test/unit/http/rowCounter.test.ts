// Rows of a table upload counted from pieces of its text (src/http/limits.ts RowCounter):
// the count does not depend on where the pieces end.
import { expect } from 'chai';
import { RowCounter } from '../../../src/http/limits.ts';

const counted = (kind: string, pieces: string[]): number => {
  const c = new RowCounter(kind);
  for (const p of pieces) c.add(p);
  return c.end();
};

/** Every way of cutting `text` in two, and one piece per character. */
const cuts = (text: string): string[][] => [[text], ...Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]), [...text]];

describe('RowCounter', () => {
  const table: Array<[kind: string, text: string, rows: number]> = [
    ['csv', 'SMILES,y\nC,1\n\nCC,2\r\nCCC,3', 3],
    ['csv', 'SMILES,y\r\n  \r\nC,1\r\n', 1],
    ['tsv', 'SMILES\ty\n', 0],
    ['smiles', 'C\n \nCC\rCCC\u2028N', 4],
    ['sdf', 'a\n\n  x\nM  END\n$$$$\nb\nM  END\n$$$$\r\n $$$$\n$$$', 2],
    ['sdf', '$$$$', 1],
    ['mol2', 'C\nCC\n', 0],
  ];
  for (const [kind, text, rows] of table) {
    it(`${kind} ${JSON.stringify(text.slice(0, 24))}: ${rows} rows, wherever the pieces end`, () => {
      for (const pieces of cuts(text)) expect(counted(kind, pieces), JSON.stringify(pieces)).to.equal(rows);
    });
  }

  it('counts only the kinds with rows', () => {
    expect(new RowCounter('csv').counts).to.equal(true);
    expect(new RowCounter('turtle').counts).to.equal(false);
  });
});
