import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { readTable, uploadKind, type UploadKind } from '../../../src/datasets/readTable.ts';
import { inferType } from '../../../src/datasets/table.ts';
import { sharedData } from '../../helpers/data.ts';

// Every shared test file read into rows: [file, kind, rows, columns, warnings, structures].
const FILES: Array<[string, UploadKind, number, number, number]> = [
  ['opentox-test/hamster_carcinogenicity.csv', 'csv', 85, 1, 0],
  ['opentox-test/hamster_carcinogenicity.sdf', 'sdf', 86, 1, 0],
  ['opentox-test/hamster_carcinogenicity.ntriples', 'ntriples', 76, 1, 0],
  ['opentox-test/hamster_carcinogenicity_with_errors.csv', 'csv', 87, 1, 0],
  ['opentox-test/multicolumn.csv', 'csv', 7, 6, 0],
  ['opentox-test/kazius.csv', 'csv', 4069, 1, 0],
  ['opentox-test/EPAFHM.csv', 'csv', 617, 1, 0],
  ['opentox-test/ISSCAN-multi.csv', 'csv', 58, 1, 0],
  ['opentox-test/LOAEL_log_mmol_corrected_smiles.csv', 'csv', 567, 1, 0],
  ['opentox-test/CPDBAS_v5c_1547_29Apr2008part.sdf', 'sdf', 100, 60, 0],
  ['opentox-test/boiling_points.ext.sdf', 'sdf', 277, 1, 0],
  ['opentox-test/acetaldehyde.sdf', 'sdf', 1, 1, 0],
  ['ambit/input.sdf', 'sdf', 7, 72, 0],
  ['ambit/test.sdf', 'sdf', 10, 6, 0],
  ['ambit/import_dataset2.rdf', 'rdfxml', 2, 2, 0],
  ['ambit/dataset_tum_500.rdf', 'rdfxml', 2, 266, 0],
];

describe('dataset upload readers', () => {
  for (const [file, kind, rows, columns, warnings] of FILES) {
    it(`${file}: ${rows} rows, ${columns} feature columns`, async () => {
      const table = await readTable(kind, readFileSync(sharedData(...file.split('/'))), 'http://test.example/dataset/1');
      expect(table.rows).to.have.length(rows);
      expect(table.columns).to.have.length(columns);
      expect(table.warnings).to.have.length(warnings);
      expect(table.rows.every((r) => r.structure || r.compoundUri)).to.equal(true);
    });
  }

  it('multicolumn.csv: types inferred per column, padding trimmed', async () => {
    const table = await readTable('csv', readFileSync(sharedData('opentox-test', 'multicolumn.csv')), 'http://x/');
    expect(table.columns.map((c) => c.type)).to.deep.equal(['numeric', 'numeric', 'nominal', 'nominal', 'nominal', 'numeric']);
    expect(table.rows[0]!.structure).to.deep.equal({ text: 'c1ccccc1NN', format: 'smiles' });
    expect(table.rows[6]!.values).to.deep.equal(['1', undefined, 'false', undefined, undefined, '1.0']);
  });

  it('SDF with a broken record in the middle: a warning naming it, the others read', async () => {
    const sdf = readFileSync(sharedData('opentox-test', 'acetaldehyde.sdf'), 'utf8');
    const table = await readTable('sdf', Buffer.from(sdf + 'garbage\nnot a molfile\n$$$$\n' + sdf), 'http://x/');
    expect(table.rows.map((r) => r.row)).to.deep.equal([1, 3]);
    expect(table.warnings).to.deep.equal([{ row: 2, message: 'no "M  END" line: not a molfile record; record skipped' }]);
  });

  const bad: Array<[string, UploadKind, string, RegExp]> = [
    ['CSV without a structure column', 'csv', 'Chemical Name,CAS\nbenzene,71-43-2\n', /NoStructureColumn/],
    ['RDF that is not a dataset', 'ntriples', '<http://a> <http://b> <http://c> .\n', /NotADatasetRepresentation/],
    ['broken Turtle', 'turtle', '<http://a> <http://b> "x', /RDFSyntaxError/],
    ['an empty body', 'csv', '', /BadRequest/],
  ];
  for (const [what, kind, body, code] of bad) {
    it(`refuses ${what}`, async () => {
      const err = await readTable(kind, Buffer.from(body), 'http://x/').then(() => undefined, (e: { status: number; code: { value: string } }) => e);
      expect(err?.status).to.equal(400);
      expect(err?.code.value).to.match(code);
    });
  }

  const types: Array<[string[], string]> = [
    [['1', '0', '1'], 'numeric'],
    [['1.5e-3', '-2', '.5'], 'numeric'],
    [['true', 'false'], 'nominal'],
    [['active', 'inactive', 'active'], 'nominal'],
    [['a', 'b', 'c'], 'string'],
    [['x', 'x', 'y'], 'nominal'],
    [[], 'string'],
  ];
  for (const [values, type] of types) {
    it(`infers ${type} from ${JSON.stringify(values)}`, () => expect(inferType(values)).to.equal(type));
  }

  it('knows upload kinds by media type and by file extension', () => {
    expect(uploadKind('text/csv')).to.equal('csv');
    expect(uploadKind('chemical/x-mdl-sdfile')).to.equal('sdf');
    expect(uploadKind('text/turtle')).to.equal('turtle');
    expect(uploadKind('application/octet-stream', 'x.sdf')).to.equal('sdf');
    expect(() => uploadKind('image/png')).to.throw(/unsupported/);
  });
});
