import { expect } from 'chai';
import { applyAlgorithm, type ModelData } from '../../../src/algorithms/apply.ts';
import { algorithmById } from '../../../src/algorithms/catalogue.ts';
import { withDefaults, type ParamValues } from '../../../src/algorithms/params.ts';
import { predictModel } from '../../../src/algorithms/learning/predict.ts';
import type { ClassificationStats, RegressionStats } from '../../../src/algorithms/ml/metrics.ts';
import { HttpError } from '../../../src/errors.ts';
import { csvTable } from '../../helpers/csvTable.ts';
import { memoryIO } from '../../helpers/memoryIO.ts';

const hamster = csvTable('hamster_carcinogenicity.csv');
const epa = csvTable('EPAFHM.csv', 120);
const io = memoryIO([hamster, epa]);
const target = hamster.columns[0]!.uri;

async function run(id: string, datasetUri: string, explicit: ParamValues = {}, predictionFeature?: string) {
  const def = algorithmById(id)!;
  const algorithmUri = `http://example.org/algorithm/${id}/abc`;
  const out = await applyAlgorithm(io, def, { algorithmUri, values: withDefaults(def.params, explicit), dataset: io.ref(datasetUri), predictionFeature });
  return { out, algorithmUri };
}

const lastDataset = () => io.created.datasets[io.created.datasets.length - 1];
const lastModel = () => io.created.models[io.created.models.length - 1];

describe('applying algorithms to in-memory datasets', () => {
  it('physchem: one numeric feature per switched-on descriptor, ot:hasSource the algorithm URI', async () => {
    const { out, algorithmUri } = await run('physchem', hamster.datasetUri, { MW: true, TPSA: true, LogP: false });
    const d = lastDataset();
    expect(out).to.deep.equal([d!.uri]);
    const made = io.created.features.filter((f) => d!.features.includes(f.uri));
    expect(made.every((f) => f.source === algorithmUri && f.type === 'numeric')).to.equal(true);
    expect(made.map((f) => f.title)).to.include('Molecular weight').and.not.include('Crippen logP');
    const mw = d!.features.indexOf(made.find((f) => f.title === 'Molecular weight')!.uri);
    // First row is acetaldehyde, CC=O: 44.05 g/mol.
    expect(d!.values[0]![mw]).to.be.closeTo(44.05, 0.01);
    expect(made.find((f) => f.title === 'Molecular weight')!.sameAs).to.match(/blueobelisk.*#weight$/);
  });

  it('smarts: counts each pattern', async () => {
    await run('smarts', hamster.datasetUri, { smarts: ['[CX3]=O', 'c'] });
    const d = lastDataset();
    const n = hamster.columns.length;
    expect(d!.values[0]!.slice(n)).to.deep.equal([1, 0]);
  });

  it('fsm: fragments present in at least min_support of the compounds, titled by SMARTS', async () => {
    await run('fsm', hamster.datasetUri, { min_support: 0.3 });
    const d = lastDataset();
    const made = io.created.features.filter((f) => d!.features.includes(f.uri));
    expect(made.length).to.be.greaterThan(0);
    for (const f of made) {
      expect(f.title).to.match(/^\[#\d+;[aA]\]/);
      const j = d!.features.indexOf(f.uri);
      const present = d!.values.filter((r) => r[j] === 1).length;
      expect(present / hamster.compounds.length).to.be.at.least(0.3 - 1e-9);
    }
  });

  it('fsm-supervised: keeps fewer fragments, those associated with the endpoint', async () => {
    await run('fsm', hamster.datasetUri, { min_support: 0.1 });
    const all = lastDataset()!.features.length;
    await run('fsm-supervised', hamster.datasetUri, { min_support: 0.1, significance: 0.05 }, target);
    const kept = lastDataset()!.features.length;
    expect(kept).to.be.greaterThan(hamster.columns.length);
    expect(kept).to.be.lessThan(all);
  });

  it('knn: a model with cross-validated statistics, the folds seed, and read-across predictions', async () => {
    const { out, algorithmUri } = await run('knn', hamster.datasetUri, { k: 3, seed: 11 }, target);
    const m = lastModel();
    expect(out).to.deep.equal([m!.uri]);
    expect(m!.algorithm).to.equal(algorithmUri);
    expect(m!.dependentVariables).to.deep.equal([target]);
    expect(m!.predictedVariables).to.have.length(3);
    const data = m!.data as ModelData;
    expect(data.neighbours).to.deep.equal({ uri: `${m!.uri}#neighbours`, count: 3, measure: 'Tanimoto similarity of Morgan fingerprints (radius 2, 2048 bits)' });
    expect(data.model.validation!.seed).to.equal(11);
    expect(data.model.validation!.folds).to.equal(5);
    const stats = data.model.validation!.stats as ClassificationStats;
    expect(stats.n).to.equal(85);
    expect(stats.balancedAccuracy).to.be.within(0, 1);
    const quads = io.created.annotations.get(m!.uri)!;
    expect(quads.some((q) => q.predicate.value.endsWith('#balancedAccuracy'))).to.equal(true);
    expect(quads.some((q) => q.predicate.value.endsWith('#randomSeed') && q.object.value === '11')).to.equal(true);
    const predictions = await predictModel(data.model, hamster);
    expect(predictions[0]!.value).to.be.oneOf(['true', 'false']);
    expect(predictions[0]!.inDomain).to.equal(true);
    expect(predictions[0]!.confidence).to.be.within(0, 1);
  });

  it('random forest: classification on fingerprints and regression on log LC50', async () => {
    await run('random-forest', hamster.datasetUri, { trees: 20 }, target);
    expect((lastModel()!.data as ModelData).model.task).to.equal('classification');
    const lc50 = epa.columns[0]!.uri;
    await run('random-forest', epa.datasetUri, { trees: 20, representation: 'descriptors' }, lc50);
    const model = (lastModel()!.data as ModelData).model;
    expect(model.task).to.equal('regression');
    const stats = model.validation!.stats as RegressionStats;
    expect(stats.rmse).to.be.greaterThan(0);
    expect(Number.isFinite(stats.r2)).to.equal(true);
  });

  it('mlr and logistic regression train on RDKit descriptors', async () => {
    await run('mlr', epa.datasetUri, {}, epa.columns[0]!.uri);
    expect((lastModel()!.data as ModelData).model.representation.kind).to.equal('descriptors');
    await run('logistic-regression', hamster.datasetUri, {}, target);
    const model = (lastModel()!.data as ModelData).model;
    expect((model.validation!.stats as ClassificationStats).auc).to.be.within(0, 1);
  });

  it('applicability domain: training compounds are inside, a very different one outside', async () => {
    await run('applicability-domain', hamster.datasetUri, {});
    const model = (lastModel()!.data as ModelData).model;
    const probe = { ...hamster, compounds: ['a', 'b'], smiles: [hamster.smiles[5]!, '[Pt](Cl)(Cl)(N)N'], values: [[null], [null]] };
    const [inside, outside] = await predictModel(model, probe);
    expect(inside!.inDomain).to.equal(true);
    expect(outside!.inDomain).to.equal(false);
    expect(outside!.value as number).to.be.greaterThan(inside!.value as number);
  });

  it('feature selection answers feature URIs; cleanup and normalisation answer datasets', async () => {
    const numeric = { ...epa, datasetUri: 'http://example.org/dataset/numeric' };
    await run('physchem', epa.datasetUri, {});
    const d = lastDataset();
    const withDescriptors = { ...numeric, columns: d!.features.map((uri, j) => ({ uri, title: `f${j}`, numeric: true })), values: d!.values.map((r) => r.map((v) => v)) };
    io.tables.set(numeric.datasetUri, withDescriptors);
    const { out: top } = await run('fs-topk', numeric.datasetUri, { k: 3 }, epa.columns[0]!.uri);
    expect(top).to.have.length(3);
    expect(top).not.to.include(epa.columns[0]!.uri);
    const { out: varied } = await run('fs-variance', numeric.datasetUri, {});
    expect(varied.length).to.be.greaterThan(3);
    const { out: uncorrelated } = await run('fs-correlation', numeric.datasetUri, { max_correlation: 0.5 });
    expect(uncorrelated.length).to.be.lessThan(varied.length);

    await run('remove-missing', epa.datasetUri, {});
    expect(lastDataset()!.compounds.length).to.be.lessThan(epa.compounds.length);
    await run('normalise', numeric.datasetUri, { method: 'minmax' });
    const scaled = lastDataset();
    const col = scaled!.values.map((r) => r[0] as number).filter((v) => v !== null);
    expect(Math.min(...col)).to.equal(0);
    expect(Math.max(...col)).to.equal(1);
  });

  it('standardise: salts stripped and charges neutralised into new compounds', async () => {
    const salts = { ...hamster, datasetUri: 'http://example.org/dataset/salts', compounds: ['c1', 'c2'], smiles: ['CC(=O)[O-].[Na+]', 'CC[NH3+].[Cl-]'], values: [[null], [null]] };
    io.tables.set(salts.datasetUri, salts);
    await run('standardise', salts.datasetUri, {});
    expect(lastDataset()!.compounds).to.have.length(2);
    expect(lastDataset()!.compounds[0]).to.match(/compound\/new-/);
  });

  it('generate3d: a dataset of conformer URIs carrying their compounds\' values', async () => {
    await run('generate3d', hamster.datasetUri, { count: 2 });
    const d = lastDataset();
    expect(d!.compounds).to.have.length(2 * hamster.compounds.length);
    expect(d!.compounds[1]).to.equal(`${hamster.compounds[0]}/conformer/2`);
    expect(d!.values[1]).to.deep.equal(hamster.values[0]);
  });

  it('fsm-supervised splits a numeric endpoint at its median', async () => {
    await run('fsm-supervised', epa.datasetUri, { min_support: 0.1, significance: 0.01 }, epa.columns[0]!.uri);
    const made = io.created.features.filter((f) => lastDataset()!.features.includes(f.uri));
    expect(made.length).to.be.greaterThan(0);
  });

  it('remove-duplicates keeps the first row of each structure', async () => {
    const dup = { ...hamster, datasetUri: 'http://example.org/dataset/dup', compounds: ['a', 'b', 'c'], smiles: ['CCO', 'OCC', 'CCN'], values: [['1'], ['2'], ['3']] };
    io.tables.set(dup.datasetUri, dup);
    await run('remove-duplicates', dup.datasetUri, {});
    expect(lastDataset()!.compounds).to.deep.equal(['a', 'c']);
    expect(lastDataset()!.values).to.deep.equal([['1'], ['3']]);
  });

  it('a prediction_feature missing from the dataset is a 400 PredictionFeatureNotInDataset', async () => {
    try {
      await run('knn', hamster.datasetUri, {}, 'http://example.org/feature/nope');
      expect.fail('expected an error');
    } catch (e) {
      expect((e as HttpError).status).to.equal(400);
      expect((e as HttpError).code.value).to.match(/PredictionFeatureNotInDataset$/);
    }
  });
});

describe('model-building refusals', () => {
  it('a single class is the data\'s fault: 400 InvalidParameter with the reason, not a 500 building failure', async () => {
    const single = { ...csvTable('hamster_carcinogenicity.csv', 10), datasetUri: 'http://example.org/dataset/one-class' };
    single.values = single.values.map(() => ['true']);
    const io = memoryIO([single]);
    const def = algorithmById('random-forest')!;
    try {
      await applyAlgorithm(io, def, { algorithmUri: 'http://example.org/algorithm/random-forest', values: withDefaults(def.params, {}), dataset: io.ref(single.datasetUri), predictionFeature: single.columns[0]!.uri });
      expect.fail('expected an error');
    } catch (e) {
      expect((e as HttpError).status).to.equal(400);
      expect((e as HttpError).code.value).to.match(/InvalidParameter$/);
      expect((e as HttpError).message).to.contain('single class');
    }
  });
});
