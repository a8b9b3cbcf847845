// Formula-like text cells are guarded with one apostrophe in every CSV the service writes,
// numbers are not, and an upload takes the apostrophe off again (src/rdf/csvCell.ts).
import { expect } from 'chai';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { DataFactory } from 'n3';
import { csvField, guardFormula, unguardFormula } from '../../../src/rdf/csvCell.ts';
import { writeResults } from '../../../src/store/sparql/resultsWriter.ts';
import { predictionsCsv } from '../../../src/validation/validations.ts';
import { XSD } from '../../../src/rdf/vocab.ts';

const { literal, namedNode } = DataFactory;

describe('CSV cells guarded against formulas', () => {
  const table: Array<[string, string]> = [
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['\t=1', "'\t=1"],
    ['\r=1', '"\'\r=1"'],
    ["'=1", "''=1"],
    ['-3.5', '-3.5'],
    ['+2', '+2'],
    ['-1.5E-3', '-1.5E-3'],
    ['', ''],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
    ['http://example.org/compound/1', 'http://example.org/compound/1'],
    ['CC(=O)O', 'CC(=O)O'],
    ["'quoted'", "'quoted'"],
  ];
  for (const [value, written] of table) {
    it(`${JSON.stringify(value)} is written ${JSON.stringify(written)}`, () => {
      expect(csvField(value)).to.equal(written);
    });
  }

  it('an upload gives back every value the writer guarded (round trip)', () => {
    const chars = fc.constantFrom(...'=+-@\'\t\r1.eE aZ,"'.split(''));
    fc.assert(fc.property(fc.string({ unit: chars, maxLength: 8 }), (v) => {
      expect(unguardFormula(guardFormula(v))).to.equal(v);
      const rows = parse(csvField(v) + '\r\n', { relax_quotes: true }) as string[][];
      expect(unguardFormula(rows[0]?.[0] ?? '')).to.equal(v);
    }));
  });

  it('SPARQL results as text/csv: strings guarded, numbers and IRIs not', () => {
    const csv = writeResults({ vars: ['s', 'v', 'n'], rows: [{ s: namedNode('http://example.org/a'), v: literal('=1+1'), n: literal('-2.5', XSD.double) }] }, 'text/csv');
    expect(csv).to.equal("s,v,n\r\nhttp://example.org/a,'=1+1,-2.5\r\n");
  });

  it('a validation\'s predictions CSV: labels guarded, numbers not', () => {
    const csv = predictionsCsv([{ row: 1, compound: 'http://example.org/compound/1', fold: 1, actual: '-1.25', predicted: '@risk', score: -0.5, confidence: 0.9, inDomain: true }]);
    expect(csv.split('\r\n')[1]).to.equal("http://example.org/compound/1,1,-1.25,'@risk,-0.5,0.9,true");
  });
});
