import { expect } from 'chai';
import { applyAlgorithm, type ModelData } from '../../src/algorithms/apply.ts';
import { algorithmById } from '../../src/algorithms/catalogue.ts';
import { withDefaults, type ParamValues } from '../../src/algorithms/params.ts';
import type { RegressionStats } from '../../src/algorithms/ml/metrics.ts';
import type { Table } from '../../src/algorithms/table.ts';
import { predictModel } from '../../src/algorithms/learning/predict.ts';
import { csvTable } from '../helpers/csvTable.ts';
import { memoryIO, type MemoryIO } from '../helpers/memoryIO.ts';

async function run(io: MemoryIO, id: string, datasetUri: string, explicit: ParamValues = {}, predictionFeature?: string): Promise<string[]> {
  const def = algorithmById(id)!;
  const algorithmUri = `http://example.org/algorithm/${id}`;
  return applyAlgorithm(io, def, { algorithmUri, values: withDefaults(def.params, explicit), datasetUri, predictionFeature });
}

/** The dataset an algorithm created, as the table the next algorithm loads. */
function created(io: MemoryIO, uri: string, base: Table): Table {
  const d = io.created.datasets.find((x) => x.uri === uri)!;
  const columns = d.features.map((f) => base.columns.find((c) => c.uri === f) ?? { uri: f, title: io.created.features.find((x) => x.uri === f)!.title, numeric: true });
  const table = { ...base, datasetUri: uri, compounds: [...d.compounds], columns, values: d.values.map((r) => [...r]) };
  io.tables.set(uri, table);
  return table;
}

const lastModel = (io: MemoryIO) => (io.created.models[io.created.models.length - 1].data as ModelData).model;

describe('models a toxicologist can trust', function () {
  this.timeout(120_000);

  it('random-forest regression cross-validates to finite statistics with default depth on EPAFHM physchem descriptors', async () => {
    const epa = csvTable('EPAFHM.csv');
    const io = memoryIO([epa]);
    const [withPhyschem] = await run(io, 'physchem', epa.datasetUri);
    created(io, withPhyschem, epa);
    await run(io, 'random-forest', withPhyschem, { trees: 20 }, epa.columns[0].uri);
    const stats = lastModel(io).validation!.stats as RegressionStats;
    expect(stats.n).to.be.greaterThan(500);
    for (const v of [stats.r2, stats.rmse, stats.mae]) expect(Number.isFinite(v)).to.equal(true);
  });

  it('a row without a value of an independent feature gets no prediction and the reason, not the training mean', async () => {
    const table: Table = {
      datasetUri: 'http://example.org/dataset/x', compounds: ['a', 'b', 'c', 'd'], smiles: ['C', 'CC', 'CCC', 'CCCC'],
      columns: [{ uri: 'http://example.org/feature/y', title: 'y', numeric: true }, { uri: 'http://example.org/feature/x', title: 'x', numeric: true }],
      values: [[1, 1], [2, 2], [3, 3], [4, 4]],
    };
    const io = memoryIO([table]);
    await run(io, 'knn', table.datasetUri, { k: 1, folds: 2 }, table.columns[0].uri);
    const model = lastModel(io);
    const probe = { ...table, values: [[null, 2.1], [null, null]] };
    const [near, gap] = await predictModel(model, probe);
    // k=1: the nearest training row to x=2.1 is x=2, whose y is 2.
    expect(near.value).to.equal(2);
    expect(gap.value).to.equal(null);
    expect(gap.reason).to.equal('no value of x');
  });
});
