import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { startApp, type TestApp } from '../helpers/app.ts';
import { initChem, parseStructure } from '../../src/chem/index.ts';
import { sharedData } from '../helpers/data.ts';
import { lines, uploadDataset, uploadFile, warnings } from '../helpers/datasets.ts';

const CSV = 'text/csv';
const SDF = 'chemical/x-mdl-sdfile';

// Every shared test file loads with the counts its rows imply:
// [file, type, entries, distinct compounds, features, warnings].
const FILES: Array<[string, string, number, number, number, number]> = [
  ['opentox-test/hamster_carcinogenicity.csv', CSV, 85, 85, 1, 0],
  ['opentox-test/hamster_carcinogenicity.sdf', SDF, 85, 85, 1, 1],
  ['opentox-test/hamster_carcinogenicity.ntriples', 'application/n-triples', 76, 76, 1, 0],
  // 6 unreadable or duplicate rows, and "NA" and "TRUE" in the 0/1 column: left empty, warned.
  ['opentox-test/hamster_carcinogenicity_with_errors.csv', CSV, 83, 81, 1, 8],
  ['opentox-test/multicolumn.csv', CSV, 6, 4, 6, 3],
  ['opentox-test/EPAFHM.csv', CSV, 617, 617, 1, 0],
  ['opentox-test/EPAFHM.mini.csv', CSV, 21, 21, 1, 0],
  ['opentox-test/ISSCAN-multi.csv', CSV, 58, 58, 1, 0],
  ['opentox-test/LOAEL_log_mmol_corrected_smiles.csv', CSV, 558, 437, 1, 130],
  // 2 records without atoms, and "blank" in 6 numeric fields of record 1: left empty, warned.
  ['opentox-test/CPDBAS_v5c_1547_29Apr2008part.sdf', SDF, 98, 98, 60, 8],
  ['opentox-test/boiling_points.ext.sdf', SDF, 277, 277, 1, 0],
  ['opentox-test/acetaldehyde.sdf', SDF, 1, 1, 1, 0],
  ['opentox-test/hamster_carcinogenicity.mini.csv', CSV, 10, 10, 1, 0],
  ['opentox-test/hamster_carcinogenicity.mini.bool_float.csv', CSV, 10, 10, 1, 0],
  ['opentox-test/hamster_carcinogenicity.mini.bool_int.csv', CSV, 10, 10, 1, 0],
  ['opentox-test/hamster_carcinogenicity.mini.bool_string.csv', CSV, 10, 10, 1, 0],
  ['ambit/input.sdf', SDF, 5, 3, 72, 4],
  ['ambit/test.sdf', SDF, 9, 9, 6, 1],
  ['ambit/import_dataset2.rdf', 'application/rdf+xml', 2, 2, 2, 0],
  ['ambit/dataset_tum_500.rdf', 'application/rdf+xml', 2, 2, 266, 0],
];

describe('dataset upload of the shared test files', function () {
  this.timeout(300_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  for (const [file, type, entries, compounds, features, warned] of FILES) {
    it(`${file}: ${entries} entries, ${compounds} compounds, ${features} features, ${warned} warnings`, async () => {
      const { status, body } = await uploadFile(app, sharedData(...file.split('/')), type);
      expect(status, body).to.equal(200);
      const got = [
        (await lines(body, 'text/csv')).length - 1,
        (await lines(body + '/compounds')).length,
        (await lines(body + '/features')).length,
        (await warnings(body)).length,
      ];
      expect(got).to.deep.equal([entries, compounds, features, warned]);
    });
  }

  it('a record without atoms is warned of as such, not as one the toolkit cannot read', async () => {
    const { status, body } = await uploadFile(app, sharedData('opentox-test', 'CPDBAS_v5c_1547_29Apr2008part.sdf'), SDF);
    expect(status, body).to.equal(200);
    const empty = (await warnings(body)).filter((w) => /^row \d+: MDL molfile: no atoms; row skipped$/.test(w));
    expect(empty, (await warnings(body)).join('\n')).to.have.length(2);
  });
});

describe('dataset upload of a file of which no row loads', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  it('opentox-test/wrong_dataset.csv: 400 naming the first row, no dataset made', async () => {
    const { status, body } = await uploadFile(app, sharedData('opentox-test', 'wrong_dataset.csv'), CSV);
    expect(status, body).to.equal(400);
    expect(body).to.match(/^400 BadRequest: no row loaded: row 2: SMILES: "Tost" is not a valid structure/);
    expect(await lines(app.url + '/dataset')).to.deep.equal([]);
  });

  // A body this large runs as a task, which writes a new dataset's entries while it parses:
  // the column's feature is made with the first row that loads, so none is made here.
  it('a task upload of 5,000 unreadable rows: 400 naming the first row, no dataset and no feature made', async () => {
    const features = await lines(app.url + '/feature');
    const csv = 'SMILES,activity\n' + Array.from({ length: 5000 }, (_, i) => `C1CC${'C'.repeat(i % 7)}N(,${i / 10}\n`).join('');
    expect(csv.length).to.be.greaterThan(64 * 1024);
    const { status, body } = await uploadDataset(app, csv, CSV);
    expect(status, body).to.equal(400);
    // The failed task's error report names the first row.
    const report = await (await fetch(body, { headers: { Accept: 'application/n-triples' } })).text();
    expect(report).to.include('no row loaded: row 2: SMILES: \\"C1CCN(\\" is not a valid structure');
    expect(await lines(app.url + '/dataset')).to.deep.equal([]);
    expect(await lines(app.url + '/feature')).to.deep.equal(features);
  });
});

describe('dataset upload of kazius.csv (about 4,000 structures, as a task)', function () {
  this.timeout(300_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  it('loads every readable row, with a warning for each other', async () => {
    const { status, body } = await uploadFile(app, sharedData('opentox-test', 'kazius.csv'), CSV);
    expect(status, body).to.equal(200);
    const entries = (await lines(body, 'text/csv')).length - 1;
    const skipped = (await warnings(body)).filter((w) => w.endsWith('row skipped')).length;
    expect(entries + skipped).to.equal(4069);
    expect(entries).to.be.greaterThan(4000);
    expect(await lines(body + '/features')).to.have.length(1);
  });

  // The upload parses in worker threads without writing molfiles for SMILES input: what it
  // stores must be what parsing each row on its own (the compound route's parse) gives, row
  // for row, and formulas and weights agree with Debian's RDKit.
  it('stores for each row the compound and value its own line gives', async () => {
    await initChem(['inchi', 'cml', 'cdxml']);
    const input = (parse(readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8')) as string[][]).slice(1);
    const { status, body } = await uploadFile(app, sharedData('opentox-test', 'kazius.csv'), CSV);
    expect(status, body).to.equal(200);
    // "row N" counts file lines: the header is line 1.
    const skipped = new Set((await warnings(body)).filter((w) => w.endsWith('row skipped')).map((w) => Number(/^row (\d+)/.exec(w)?.[1]) - 2));
    const kept = input.filter((_, i) => !skipped.has(i));
    const res = await fetch(body, { headers: { Accept: 'text/csv' } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/csv/);
    const [header, ...out] = parse(await res.text()) as string[][];
    expect(header).to.deep.equal(['Compound', 'SMILES', 'Mutagenicity']);
    expect(out).to.have.length(kept.length);
    const stored = new Map((await app.deps.store.select('compound-identities')).map((r) => [r.compound!.value, r]));
    const reference = JSON.parse(execFileSync('/usr/bin/python3', ['-c', RDKIT_FORMULAS], { input: JSON.stringify(kept.map((r) => r[0])), encoding: 'utf8', maxBuffer: 1 << 26 })) as Array<[string, number, number] | null>;
    let independent = 0;
    kept.forEach(([smiles, value], i) => {
      const [compound, outSmiles, outValue] = out[i]!; // out has one line per kept row (checked above)
      const s = parseStructure(smiles!, 'smiles');
      const r = stored.get(compound!);
      expect(r, `row ${i}: ${compound}`).to.not.equal(undefined);
      expect([r!.smiles!.value, r!.inchi!.value, r!.inchiKey!.value, r!.formula!.value, Number(r!.mw!.value), r!.file], `row ${i}: ${smiles}`)
        .to.deep.equal([s.smiles, s.inchi, s.inchiKey, s.formula, s.molecularWeight, undefined]);
      expect([outSmiles, outValue]).to.deep.equal([s.smiles, value]);
      const ref = reference[i];
      if (ref && ref[2] === 0) {
        expect(s.formula, smiles).to.equal(ref[0]);
        expect(s.molecularWeight, smiles).to.be.closeTo(ref[1], 0.05);
        independent++;
      }
    });
    expect(independent).to.be.greaterThan(3900);
  });
});

/** Hill formula, average weight and net charge of each SMILES by Debian's RDKit (null when it cannot read one). */
const RDKIT_FORMULAS = `
import json, sys
from rdkit import Chem, RDLogger
from rdkit.Chem import Descriptors, rdMolDescriptors
RDLogger.DisableLog('rdApp.*')
out = []
for s in json.load(sys.stdin):
    m = Chem.MolFromSmiles(s)
    out.append(None if m is None else [rdMolDescriptors.CalcMolFormula(m), Descriptors.MolWt(m), Chem.GetFormalCharge(m)])
print(json.dumps(out))
`;
