import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';
import { sharedData } from '../helpers/data.ts';
import { ATYPE, BO_NS } from '../../src/rdf/vocab.ts';

const post = (url: string, form: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  return fetch(url, { method: 'POST', headers: { Accept: 'text/uri-list' }, body });
};

/** POSTs and follows the task; answers the final status and the result (or error) text. */
async function apply(url: string, form: Record<string, string | string[]>): Promise<{ status: number; body: string }> {
  const res = await post(url, form);
  const text = (await res.text()).trim();
  return res.status === 202 ? followTask(text) : { status: res.status, body: text };
}

const nt = async (url: string) => (await fetch(url, { headers: { Accept: 'application/n-triples' } })).text();

describe('/algorithm (SPEC §2.1, §4.1)', function () {
  this.timeout(180_000);
  let app: TestApp;
  let hamster: string;
  let target: string;
  before(async () => {
    app = await startApp();
    hamster = (await uploadDataset(app, readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.mini.bool_string.csv'), 'utf8'), 'text/csv')).body;
    const features = (await nt(hamster)).split('\n').filter((l) => l.includes('#NominalFeature>') || l.includes('#NumericFeature>'));
    target = features[0]!.slice(1, features[0]!.indexOf('>'));
  });
  after(async () => { await app.close(); });

  it('lists the catalogue as uri-list and as RDF with full descriptions', async () => {
    const uris = await lines(app.url + '/algorithm');
    for (const id of ['physchem', 'knn', 'random-forest', 'fsm', 'fs-topk', 'standardise', 'normalise', 'generate3d', 'applicability-domain']) {
      expect(uris).to.include(`${app.url}/algorithm/${id}`);
    }
    const res = await fetch(app.url + '/algorithm');
    expect(res.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    const xml = await res.text();
    expect(xml).to.contain('ot:Parameter').and.contain('ot:paramScope').and.contain('owl:sameAs');
    const page = await fetch(app.url + '/algorithm?pagesize=2', { headers: { Accept: 'text/uri-list' } });
    expect((await page.text()).trim().split('\n')).to.have.length(2);
    expect(page.headers.get('link')).to.contain('rel="next"');
  });

  it('?type= takes prefixed names of the service\'s own RDF', async () => {
    expect(await lines(`${app.url}/algorithm?type=ota:Learning`)).to.deep.equal(await lines(`${app.url}/algorithm?type=${encodeURIComponent(ATYPE.Learning.value)}`));
    expect(await lines(`${app.url}/algorithm?type=ota:Classification`)).to.include(`${app.url}/algorithm/knn`);
  });

  it('?type= cut at "#" answers 400 saying to write %23', async () => {
    const res = await fetch(`${app.url}/algorithm?type=${ATYPE.Classification.value}`, { headers: { Accept: 'text/plain' } });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.contain('%23');
  });

  it('?type= includes subclasses, also of a hierarchy POSTed to /ontology', async () => {
    const learners = await lines(`${app.url}/algorithm?type=${encodeURIComponent(ATYPE.Learning.value)}`);
    expect(learners).to.include(`${app.url}/algorithm/knn`).and.not.include(`${app.url}/algorithm/physchem`);
    const ttl = `@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n<${ATYPE.ns}PatternMining> rdfs:subClassOf <http://example.org/types#Exotic> .\n`;
    const up = await fetch(app.url + '/ontology', { method: 'POST', headers: { 'Content-Type': 'text/turtle' }, body: ttl });
    expect(up.status).to.be.oneOf([200, 201]);
    const exotic = await lines(`${app.url}/algorithm?type=${encodeURIComponent('http://example.org/types#Exotic')}`);
    expect(exotic).to.include(`${app.url}/algorithm/fsm`).and.not.include(`${app.url}/algorithm/knn`);
    const none = await fetch(`${app.url}/algorithm?type=${encodeURIComponent('http://example.org/none')}`, { headers: { Accept: 'text/uri-list' } });
    expect(none.status).to.equal(200);
    expect(none.headers.get('content-type')).to.match(/^text\/uri-list/);
    expect(await none.text()).to.equal('');
  });

  it('?sameas= finds the descriptor with that Blue Obelisk entry', async () => {
    expect(await lines(`${app.url}/algorithm?sameas=${encodeURIComponent(BO_NS + 'tpsa')}`)).to.deep.equal([`${app.url}/algorithm/rdkit-tpsa`]);
  });

  const formats: Array<[string, RegExp, string]> = [
    ['application/rdf+xml', /^application\/rdf\+xml/, 'ot:Algorithm rdf:about'],
    ['text/turtle', /^text\/turtle/, 'ot:Algorithm'],
    ['application/n-triples', /^application\/n-triples/, '#Algorithm>'],
    ['application/ld+json', /^application\/ld\+json/, 'ot:Algorithm'],
    ['application/json', /^application\/json/, '"parameters": ['],
  ];
  for (const [accept, type, marker] of formats) {
    it(`GET /algorithm/knn as ${accept}`, async () => {
      const res = await fetch(app.url + '/algorithm/knn', { headers: { Accept: accept } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(type);
      expect(await res.text()).to.contain(marker);
    });
  }

  const bad: Array<[string, string, Record<string, string>, number, string]> = [
    ['missing dataset_uri', 'physchem', {}, 400, 'MissingParameter'],
    ['supervised without prediction_feature', 'knn', { dataset_uri: 'DATASET' }, 400, 'prediction_feature'],
    ['prediction_feature not in the dataset', 'knn', { dataset_uri: 'DATASET', prediction_feature: 'http://example.org/feature/x' }, 400, 'PredictionFeatureNotInDataset'],
    ['min_support outside (0,1]', 'fsm', { dataset_uri: 'DATASET', min_support: '0' }, 400, 'min_support'],
    ['k < 1', 'knn', { dataset_uri: 'DATASET', prediction_feature: 'TARGET', k: '0' }, 400, 'an integer in [1,1000]'],
    ['a boolean that is not one', 'physchem', { dataset_uri: 'DATASET', MW: 'perhaps' }, 400, 'MW'],
    ['a SMARTS that does not parse', 'smarts', { dataset_uri: 'DATASET', smarts: 'C(((' }, 400, '"C(((" is not valid SMARTS: syntax error while parsing: C((( (at position 3)'],
    ['a SMARTS with a ring left open', 'smarts', { dataset_uri: 'DATASET', smarts: 'c1cc' }, 400, '"c1cc" is not valid SMARTS: unclosed ring for input: \'c1cc\''],
    ['an unknown algorithm', 'nope', { dataset_uri: 'DATASET' }, 404, 'NotFound'],
  ];
  for (const [what, id, form, status, text] of bad) {
    it(`POST answers ${status} for ${what}`, async () => {
      const f = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, v.replace('DATASET', hamster).replace('TARGET', target)]));
      const res = await fetch(`${app.url}/algorithm/${id}`, { method: 'POST', body: new URLSearchParams(f) });
      expect(res.status).to.equal(status);
      expect(await res.text()).to.contain(text);
    });
  }

  it('an unknown parameter answers 400 naming it and listing the known ones, for every algorithm', async () => {
    const ids = await lines(app.url + '/algorithm');
    expect(ids.length).to.be.greaterThan(10);
    for (const uri of ids) {
      const res = await fetch(uri, { method: 'POST', body: new URLSearchParams({ dataset_uri: hamster, prediction_feature: target, kk: '3' }) });
      const text = await res.text();
      expect(res.status, `${uri}: ${text}`).to.equal(400);
      expect(res.headers.get('content-type'), uri).to.match(/^(text\/plain|application\/rdf\+xml)/);
      expect(text, uri).to.contain('unknown parameter kk').and.to.contain('InvalidParameter');
    }
    const knn = await (await fetch(app.url + '/algorithm/knn', { method: 'POST', body: new URLSearchParams({ dataset_uri: hamster, prediction_feature: target, kk: '3' }) })).text();
    expect(knn).to.contain('k, min_similarity');
  });

  it('parameterised URIs: created, reused, repeated, and closed to new parameters (rules 1-6)', async () => {
    const first = await apply(app.url + '/algorithm/physchem', { dataset_uri: hamster, MW: 'true', LogP: 'false' });
    expect(first.status, first.body).to.equal(200);
    const dataset = first.body;
    const triples = await nt(dataset);
    const source = /<([^>]*\/algorithm\/physchem\/[0-9a-f]{16})>/.exec(triples.split('\n').find((l) => l.includes('#hasSource> <' + app.url + '/algorithm/')) ?? '')?.[1];
    expect(source, 'features have the parameterised URI as ot:hasSource').to.be.a('string');
    const described = await nt(source!);
    expect(described).to.contain('"false"^^<http://www.w3.org/2001/XMLSchema#boolean>').and.contain(`<${app.url}/algorithm/physchem>`);
    const again = await apply(app.url + '/algorithm/physchem', { dataset_uri: hamster, LogP: 'false', MW: 'true' });
    expect(await nt(again.body)).to.contain(`<${source}>`);
    const repeat = await apply(source!, { dataset_uri: hamster });
    expect(repeat.status).to.equal(200);
    expect(await nt(repeat.body)).to.contain(`<${source}>`);
    const refused = await post(source!, { dataset_uri: hamster, MW: 'false' });
    expect(refused.status).to.equal(400);
    expect(await refused.text()).to.contain('ParameterisedAlgorithm');
    expect((await fetch(app.url + '/algorithm/physchem/0123456789abcdef')).status).to.equal(404);
  });

  it('kNN builds a model with cross-validated statistics that predicts with confidence', async () => {
    const built = await apply(app.url + '/algorithm/knn', { dataset_uri: hamster, prediction_feature: target, k: '3', folds: '2', seed: '9' });
    expect(built.status, built.body).to.equal(200);
    const model = built.body;
    expect(model).to.match(/\/model\//);
    const triples = await nt(model);
    expect(triples).to.contain('#balancedAccuracy>').and.contain('#areaUnderRoc>').and.contain('#confusionMatrixValue>');
    expect(triples).to.match(/#randomSeed> "9"/);
    const predicted = await apply(model, { dataset_uri: hamster });
    expect(predicted.status, predicted.body).to.equal(200);
    const csv = await lines(predicted.body, 'text/csv');
    expect(csv[0]).to.contain('confidence').and.contain('applicability domain');
    expect(csv).to.have.length(11);
    // Each row names its k=3 neighbours in a column group each: compound, similarity, measured value.
    expect(csv[0]).to.contain('neighbour_1 compound,neighbour_1 similarity,neighbour_1 value').and.contain('neighbour_3 value').and.not.contain('neighbour_4');
    expect(csv[1]).to.match(/,http:\/\/[^,]+\/compound\/\d+,(0|1|0\.\d+),(true|false)(,|$)/);
  });

  it('dataset_uri with feature_uris[] restricts what a model learns from, keeping prediction_feature', async () => {
    const described = await apply(app.url + '/algorithm/physchem', { dataset_uri: hamster, MW: 'true', TPSA: 'true', LogP: 'true' });
    const features = [...new Set((await nt(described.body)).split('\n').filter((l) => l.includes(`#hasSource> <${app.url}/algorithm/physchem`)).map((l) => l.slice(1, l.indexOf('>'))))];
    const url = new URL(described.body);
    for (const f of features.slice(0, 2)) url.searchParams.append('feature_uris[]', f);
    const built = await apply(app.url + '/algorithm/random-forest', { dataset_uri: url.href, prediction_feature: target, representation: 'features', trees: '10', folds: '2' });
    expect(built.status, built.body).to.equal(200);
    const independent = (await nt(built.body)).split('\n').filter((l) => l.includes('#independentVariables>')).map((l) => l.slice(l.lastIndexOf('<') + 1, l.lastIndexOf('>')));
    expect(independent.sort()).to.deep.equal(features.slice(0, 2).sort());
  });

  it('feature selection answers the selected feature URIs (SPEC §4.1)', async () => {
    const described = await apply(app.url + '/algorithm/physchem', { dataset_uri: hamster });
    const features = (await nt(described.body)).split('\n').filter((l) => l.includes('#hasSource>')).map((l) => l.slice(1, l.indexOf('>')));
    const res = await post(`${app.url}/algorithm/preprocessing/featureselection/fs-variance`, { dataset_uri: described.body, feature_definition: features.slice(0, 4), threshold: '0' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
    const selected = (await res.text()).trim().split(/\r?\n/);
    expect(selected.length).to.be.within(1, 4);
    for (const f of selected) expect(features).to.include(f);
  });

  it('feature selection with a feature_definition not in the dataset answers 400 naming feature_definition', async () => {
    const res = await post(`${app.url}/algorithm/preprocessing/featureselection/fs-variance`, { dataset_uri: hamster, feature_definition: [`${app.url}/feature/999999`], threshold: '0' });
    expect(res.status).to.equal(400);
    const text = await res.text();
    expect(text).to.match(/^400 FeatureNotInDataset: feature_definition names a feature/);
    expect(text).to.contain('/feature/999999');
  });

  it('generate3d stores conformers and answers a dataset of them', async () => {
    const small = (await uploadDataset(app, 'SMILES,x\nCCO,1\nc1ccccc1O,2\n', 'text/csv')).body;
    const res = await apply(app.url + '/algorithm/generate3d', { dataset_uri: small, count: '2' });
    expect(res.status, res.body).to.equal(200);
    const rows = await lines(res.body, 'text/uri-list');
    const conformers = rows.filter((u) => /\/compound\/\d+\/conformer\/\d+$/.test(u));
    expect(conformers.length).to.be.within(2, 4);
    const xyz = await fetch(conformers[0]!, { headers: { Accept: 'chemical/x-mdl-molfile' } });
    expect(xyz.status).to.equal(200);
  });

  it('a training set the learner cannot use (one class) ends the task in Error with 400 and the reason', async () => {
    const one = (await uploadDataset(app, 'SMILES,active\nCCO,1\nCCCO,1\nCCCCO,1\n', 'text/csv')).body;
    const feature = (await nt(one)).split('\n').find((l) => l.includes('#NumericFeature>'))!;
    const res = await apply(app.url + '/algorithm/random-forest', { dataset_uri: one, prediction_feature: feature.slice(1, feature.indexOf('>')) });
    expect(res.status).to.equal(400);
    const report = await (await fetch(res.body, { headers: { Accept: 'text/turtle' } })).text();
    expect(report).to.contain('Error').and.contain('single class').and.contain('InvalidParameter');
  });
});
