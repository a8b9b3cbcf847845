import { expect } from 'chai';
import { applyAlgorithm, type ModelData } from '../../../src/algorithms/apply.ts';
import { algorithmById } from '../../../src/algorithms/catalogue.ts';
import { withDefaults, type ParamValues } from '../../../src/algorithms/params.ts';
import type { RegressionStats } from '../../../src/algorithms/ml/metrics.ts';
import type { Table } from '../../../src/algorithms/table.ts';
import { predictModel } from '../../../src/algorithms/learning/predict.ts';
import { taskOf, trainModel } from '../../../src/algorithms/learning/trainer.ts';
import { csvTable } from '../../helpers/csvTable.ts';
import { memoryIO, type MemoryIO } from '../../helpers/memoryIO.ts';

async function run(io: MemoryIO, id: string, datasetUri: string, explicit: ParamValues = {}, predictionFeature?: string): Promise<string[]> {
  const def = algorithmById(id)!;
  const algorithmUri = `http://example.org/algorithm/${id}`;
  return applyAlgorithm(io, def, { algorithmUri, values: withDefaults(def.params, explicit), dataset: io.ref(datasetUri), predictionFeature });
}

/** The dataset an algorithm created, as the table the next algorithm loads. */
function created(io: MemoryIO, uri: string, base: Table): Table {
  const d = io.created.datasets.find((x) => x.uri === uri)!;
  const columns = d.features.map((f) => base.columns.find((c) => c.uri === f) ?? { uri: f, title: io.created.features.find((x) => x.uri === f)!.title, numeric: true });
  const table = { ...base, datasetUri: uri, compounds: [...d.compounds], columns, values: d.values.map((r) => [...r]) };
  io.tables.set(uri, table);
  return table;
}

const lastModel = (io: MemoryIO) => (io.created.models[io.created.models.length - 1]!.data as ModelData).model;

describe('models a toxicologist can trust', function () {
  this.timeout(120_000);

  it('random-forest regression cross-validates to finite statistics with default depth on EPAFHM physchem descriptors', async () => {
    const epa = csvTable('EPAFHM.csv');
    const io = memoryIO([epa]);
    const [withPhyschem] = await run(io, 'physchem', epa.datasetUri);
    created(io, withPhyschem!, epa);
    await run(io, 'random-forest', withPhyschem!, { trees: 20 }, epa.columns[0]!.uri);
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
    // y holds four integers, classes by type_of_target: asked to regress.
    await run(io, 'knn', table.datasetUri, { k: 1, folds: 2, task: 'regression' }, table.columns[0]!.uri);
    const model = lastModel(io);
    const probe = { ...table, values: [[null, 2.1], [null, null]] };
    const [near, gap] = await predictModel(model, probe);
    // k=1: the nearest training row to x=2.1 is x=2, whose y is 2.
    expect(near!.value).to.equal(2);
    expect(gap!.value).to.equal(null);
    expect(gap!.reason).to.equal('no value of x');
  });

  it('training reports progress that moves: after the vectors, then per tree of every fold and of the final fit', async () => {
    const hamster = csvTable('hamster_carcinogenicity.csv');
    const def = algorithmById('random-forest')!;
    const seen: number[] = [];
    await trainModel({ learner: 'randomForest', table: hamster, target: 0, params: withDefaults(def.params, { trees: 4, folds: 2 }), algorithmUri: 'http://example.org/algorithm/random-forest', fallback: 'morgan', progress: (p) => seen.push(p) });
    // 2 folds and the final fit, 4 trees each: at least 12 steps, rising to 100.
    expect(seen.length).to.be.at.least(12);
    expect(seen[0]).to.equal(5);
    expect(seen[seen.length - 1]).to.be.closeTo(100, 1e-9);
    for (let i = 1; i < seen.length; i++) expect(seen[i], `step ${i}`).to.be.at.least(seen[i - 1]!);
    expect(new Set(seen.map((p) => Math.round(p))).size).to.be.at.least(10);
  });

  it('a kNN prediction lists its neighbours: compound, similarity and measured value', async () => {
    const table: Table = {
      datasetUri: 'http://example.org/dataset/n', compounds: ['http://example.org/compound/1', 'http://example.org/compound/2', 'http://example.org/compound/4'], smiles: ['C', 'CC', 'CCC'],
      columns: [{ uri: 'http://example.org/feature/y', title: 'y', numeric: true }, { uri: 'http://example.org/feature/x', title: 'x', numeric: true }],
      values: [[10, 1], [20, 2], [40, 4]],
    };
    const io = memoryIO([table]);
    await run(io, 'knn', table.datasetUri, { k: 2, folds: 2, task: 'regression' }, table.columns[0]!.uri);
    const [p] = await predictModel(lastModel(io), { ...table, compounds: ['q'], values: [[null, 2.4]] });
    // By hand: x standardised with mean 7/3 and population sd sqrt(42/27); similarity
    // 1 / (1 + |2.4 - x| / sd): x=2 gives 0.7572, x=1 gives 0.4970, x=4 (0.4381) is third.
    const sd = Math.sqrt(42 / 27);
    const s2 = 1 / (1 + 0.4 / sd);
    const s1 = 1 / (1 + 1.4 / sd);
    expect(p!.neighbours!.map((n) => n.compound)).to.deep.equal(['http://example.org/compound/2', 'http://example.org/compound/1']);
    expect(p!.neighbours![0]!.similarity).to.be.closeTo(s2, 1e-9);
    expect(p!.neighbours![1]!.similarity).to.be.closeTo(s1, 1e-9);
    expect(p!.neighbours!.map((n) => n.measured)).to.deep.equal([20, 10]);
    expect(p!.value as number).to.be.closeTo((s2 * 20 + s1 * 10) / (s2 + s1), 1e-6);
  });

  it('the learning task follows the target\'s kind and the algorithm', () => {
    const table = (values: Array<number | string>, nominal = false): Table => ({
      datasetUri: 'd', compounds: values.map((_, i) => `c${i}`), smiles: values.map(() => 'C'),
      columns: [{ uri: 'y', title: 'y', numeric: !nominal && values.every((v) => typeof v === 'number'), nominal }], values: values.map((v) => [v]),
    });
    const both = ['classification', 'regression'] as const;
    expect(taskOf(table([0, 1, 2, 1]), 0, both)).to.equal('classification');
    expect(taskOf(table([0.5, 1, 2, 1]), 0, both)).to.equal('regression');
    expect(taskOf(table([0, 1, 2, 1], true), 0, both)).to.equal('classification');
    expect(taskOf(table([0, 1, 1]), 0, both)).to.equal('classification');
    expect(taskOf(table([0, 1, 2, 1]), 0, ['classification'])).to.equal('classification');
    expect(taskOf(table([0, 1, 1]), 0, ['regression'])).to.equal('regression');
    expect(() => taskOf(table([0.5, 1.5, 2.5]), 0, ['classification'])).to.throw(/is numeric, so it asks for regression, but this algorithm does classification only/);
    expect(() => taskOf(table(['a', 'b'], true), 0, ['regression'])).to.throw(/so it asks for classification, but this algorithm does regression only/);
  });
});
