// Cells a spreadsheet would run as formulas come back in text/csv with a leading apostrophe;
// numbers stay as they are; an upload of that CSV gives back the original values
// (src/rdf/csvCell.ts, OWASP CSV injection).
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { startApp, type TestApp } from '../helpers/app.ts';
import { uploadDataset } from '../helpers/datasets.ts';

const CSV = 'text/csv';
const FORMULAS = ['=HYPERLINK("http://x","y")', "=cmd|' /C calc'!A0", '@SUM(A1)', '+1+1'];
const field = (v: string) => `"${v.replace(/"/g, '""')}"`;

/** Every string in a JSON-LD document. */
function strings(doc: unknown): string[] {
  if (typeof doc === 'string') return [doc];
  if (Array.isArray(doc)) return doc.flatMap(strings);
  if (doc && typeof doc === 'object') return Object.values(doc).flatMap(strings);
  return [];
}

describe('CSV formula injection', function () {
  this.timeout(120_000);
  let app: TestApp;
  let dataset: string;
  before(async () => {
    app = await startApp();
    const csv = [
      'SMILES,Note,logS,=Title',
      `CCO,${field(FORMULAS[0]!)},-3.5,a`,
      `c1ccccc1,${field(FORMULAS[1]!)},1.25,b`,
      `CCCC,${FORMULAS[2]},-0.5,c`,
      `CC(=O)O,${FORMULAS[3]},2,-d`,
    ].join('\n') + '\n';
    const up = await uploadDataset(app, csv, CSV);
    expect(up.status, up.body).to.equal(200);
    dataset = up.body;
  });
  after(async () => { await app.close(); });

  const download = async (uri: string) => {
    const res = await fetch(uri, { headers: { Accept: CSV } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/csv/);
    return res.text();
  };

  it('text/csv writes formula-like text cells with a leading apostrophe, numbers unchanged', async () => {
    const text = await download(dataset);
    const [header, ...rows] = parse(text) as string[][];
    expect(header).to.deep.equal(['Compound', 'SMILES', 'Note', 'logS', "'=Title"]);
    const bySmiles = new Map(rows.map((r) => [r[1], r]));
    expect(bySmiles.get('CCO')!.slice(2)).to.deep.equal([`'${FORMULAS[0]}`, '-3.5', 'a']);
    expect(bySmiles.get('c1ccccc1')!.slice(2)).to.deep.equal([`'${FORMULAS[1]}`, '1.25', 'b']);
    expect(bySmiles.get('CCCC')!.slice(2)).to.deep.equal([`'${FORMULAS[2]}`, '-0.5', 'c']);
    expect(bySmiles.get('CC(=O)O')!.slice(2)).to.deep.equal([`'${FORMULAS[3]}`, '2', "'-d"]);
    // The raw text too: the number is written bare, the formula quoted with its apostrophe.
    expect(text).to.contain(`,"'=HYPERLINK(""http://x"",""y"")",-3.5,`);
    for (const f of FORMULAS) expect(text.split(/\r\n/).some((line) => line.split(',').some((cell) => cell === f || cell === field(f))), f).to.equal(false);
  });

  it('an upload of the downloaded CSV gives back the original values, and the same CSV', async () => {
    const first = await download(dataset);
    const copy = await uploadDataset(app, first, CSV);
    expect(copy.status, copy.body).to.equal(200);
    const res = await fetch(copy.body, { headers: { Accept: 'application/ld+json' } });
    expect(res.status).to.equal(200);
    const values = strings(await res.json());
    for (const f of [...FORMULAS, '=Title', '-d']) {
      expect(values, f).to.include(f);
      expect(values, f).not.to.include(`'${f}`);
    }
    expect(await download(copy.body)).to.equal(first);
  });
});
