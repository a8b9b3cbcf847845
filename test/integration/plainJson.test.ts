// application/json over HTTP: plain keys a JSON client reads directly, the same triples as
// the RDF answer when a JSON-LD processor expands it under /context.jsonld, and the shape
// the OpenAPI document's JSON Schemas give (validated with ajv).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, uploadDataset } from '../helpers/datasets.ts';
import { sharedData } from '../helpers/data.ts';
import { sameTriples, schemaValidator } from '../helpers/plainJson.ts';

type Json = Record<string, unknown>;

async function getJson(url: string, status = 200): Promise<Json> {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  expect(res.status, url).to.equal(status);
  expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
  return await res.json() as Json;
}

const nTriples = async (url: string, status = 200) => {
  const res = await fetch(url, { headers: { Accept: 'application/n-triples' } });
  expect(res.status).to.equal(status);
  return res.text();
};

describe('application/json: compact JSON-LD under /context.jsonld', function () {
  this.timeout(300_000);
  let app: TestApp;
  let dataset: string;
  let feature: string;
  let model: string;
  let validate: (name: string, value: unknown) => string | undefined;

  before(async () => {
    app = await startApp();
    const up = await uploadDataset(app, readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.mini.bool_string.csv')), 'text/csv');
    expect(up.status, up.body).to.equal(200);
    dataset = up.body;
    feature = (await (await fetch(dataset + '/features', { headers: { Accept: 'text/uri-list' } })).text()).trim().split(/\r\n/)[0]!;
    const built = await fetch(app.url + '/algorithm/knn', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: dataset, prediction_feature: feature, k: '3', folds: '2', seed: '9' }) });
    const done = built.status === 202 ? await followTask((await built.text()).trim()) : { status: built.status, body: (await built.text()).trim() };
    expect(done.status, done.body).to.equal(200);
    model = done.body;
    validate = schemaValidator(await getJson(app.url + '/openapi.json') as never);
  });
  after(() => app.close());

  it('publishes its context as application/ld+json', async () => {
    const res = await fetch(app.url + '/context.jsonld');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/ld\+json/);
    const ctx = (await res.json() as { '@context': Record<string, unknown> })['@context'];
    expect(ctx.id).to.equal('@id');
    expect(ctx.title).to.deep.equal({ '@id': 'http://purl.org/dc/elements/1.1/title' });
    expect(ctx.values).to.deep.equal({ '@id': 'http://www.opentox.org/api/1.1#values', '@container': '@set' });
  });

  it('a dataset reads as plain keys: id, type, dataEntry with compound and values', async () => {
    const json = await getJson(dataset);
    expect(json['@context']).to.equal(app.url + '/context.jsonld');
    expect(json.id).to.equal(dataset);
    expect(json.type).to.deep.equal(['Dataset']);
    const entries = json.dataEntry as Json[];
    // The mini hamster file has 10 rows, each with a value of its one feature.
    expect(entries).to.have.length(10);
    const first = entries[0]!;
    expect((first.compound as Json).id).to.match(/\/compound\/\d+$/);
    const values = first.values as Json[];
    expect(values).to.have.length(1);
    expect((values[0]!.feature as Json).id).to.equal(feature);
    expect(values[0]!.value).to.be.oneOf(['true', 'false']);
    const features = json.included as Json[];
    expect(features.find((f) => f.id === feature)!.title).to.equal('Hamster Carcinogenicity');
  });

  const resources: Array<[string, () => string, string, number?]> = [
    ['dataset', () => dataset, 'Dataset'],
    ['dataset page', () => `${dataset}?page=1&pagesize=3`, 'Dataset'],
    ['dataset metadata', () => `${dataset}/metadata`, 'Dataset'],
    ['dataset entry', () => `${dataset}/entry/1`, 'DataEntryDocument'],
    ['feature', () => feature, 'Feature'],
    ['compound', () => `${app.url}/compound/1`, 'Compound'],
    ['algorithm', () => `${app.url}/algorithm/knn`, 'Algorithm'],
    ['model', () => model, 'Model'],
    ['service', () => `${app.url}/`, 'Service'],
    ['list', () => `${app.url}/algorithm?pagesize=3`, 'List'],
    ['error report', () => `${app.url}/dataset/999999`, 'ErrorReport', 404],
  ];
  for (const [name, url, schema, status] of resources) {
    it(`${name}: the same triples as N-Triples, and valid against the ${schema} schema`, async () => {
      const json = await getJson(url(), status);
      expect(validate(schema, json)).to.equal(undefined);
      const { json: fromJson, rdf } = await sameTriples(json, await nTriples(url(), status), url());
      expect(fromJson.split('\n').length).to.be.greaterThan(2);
      expect(fromJson).to.equal(rdf);
    });
  }

  it('validation: a cross-validation reads as a Validation, with the same triples', async () => {
    const res = await fetch(app.url + '/validation/crossvalidation', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ algorithm_uri: app.url + '/algorithm/knn', dataset_uri: dataset, prediction_feature: feature, num_folds: '2' }) });
    const done = res.status === 202 ? await followTask((await res.text()).trim()) : { status: res.status, body: (await res.text()).trim() };
    expect(done.status, done.body).to.equal(200);
    const json = await getJson(done.body);
    expect(validate('Validation', json)).to.equal(undefined);
    expect(json.type).to.include('Crossvalidation');
    const { json: fromJson, rdf } = await sameTriples(json, await nTriples(done.body), done.body);
    expect(fromJson).to.equal(rdf);
  });

  it('a task answers as a Task, and a schema tells a wrong answer from a right one', async () => {
    const res = await fetch(app.url + '/algorithm/knn', { method: 'POST', headers: { Accept: 'application/json' }, body: new URLSearchParams({ dataset_uri: dataset, prediction_feature: feature, k: '4' }) });
    expect([200, 202]).to.include(res.status);
    const task = await res.json() as Json;
    expect(validate('Task', task)).to.equal(undefined);
    expect(task.hasStatus).to.be.oneOf(['Queued', 'Running', 'Completed']);
    await followTask(task.id as string);
    const ended = await getJson(task.id as string, 200);
    expect(ended.hasStatus).to.equal('Completed');
    expect(ended.resultURI).to.match(/\/model\/[^/]+$/);
    expect(validate('Task', { ...ended, hasStatus: 'Done' })).to.match(/hasStatus/);
    expect(validate('Dataset', ended)).to.match(/type/);
  });

  it('a 400 report names its parameter and an error code of the ontology', async () => {
    const res = await fetch(app.url + '/algorithm/knn', { method: 'POST', headers: { Accept: 'application/json' }, body: new URLSearchParams({ dataset_uri: dataset, prediction_feature: feature, k: '0' }) });
    expect(res.status).to.equal(400);
    const report = await res.json() as Json;
    expect(validate('ErrorReport', report)).to.equal(undefined);
    expect(report.errorCode).to.deep.equal({ id: 'http://www.opentox.org/errors.owl#InvalidParameter' });
    expect(report.statusCode).to.equal(400);
    expect(report.message).to.contain('k=');
    expect(validate('ErrorReport', { ...report, errorCode: { id: 'http://www.opentox.org/errors.owl#Nonesuch' } })).to.match(/errorCode/);
  });

  it('application/ld+json still answers JSON-LD under the prefix context', async () => {
    const res = await fetch(dataset, { headers: { Accept: 'application/ld+json' } });
    expect(res.headers.get('content-type')).to.match(/^application\/ld\+json/);
    const body = await res.json() as { '@context': Record<string, string>; '@graph': unknown[] };
    expect(body['@context'].ot).to.equal('http://www.opentox.org/api/1.1#');
    expect(body['@graph'].length).to.be.greaterThan(10);
  });
});

describe('application/json of a large dataset streams', function () {
  this.timeout(300_000);
  let app: TestApp;
  before(async () => {
    app = await startApp();
  });
  after(() => app.close());

  it('617 EPAFHM rows arrive in chunks, with no length known up front, and parse whole', async () => {
    const up = await uploadDataset(app, readFileSync(sharedData('opentox-test', 'EPAFHM.csv')), 'text/csv');
    expect(up.status, up.body).to.equal(200);
    const res = await fetch(up.body, { headers: { Accept: 'application/json', 'Accept-Encoding': 'identity' } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-length')).to.equal(null);
    let chunks = 0;
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      chunks++;
      text += decoder.decode(chunk, { stream: true });
    }
    expect(chunks).to.be.greaterThan(1);
    const json = JSON.parse(text) as { dataEntry: Array<{ values?: Array<{ value: unknown }> }> };
    expect(json.dataEntry).to.have.length(617);
    // 1.13E-02 is the first row's LC50 in the file.
    expect(json.dataEntry[0]!.values![0]!.value).to.equal(0.0113);
  });
});
