// /ontology: built-ins listed with titles and counts, paging, upload of the
// published ontologies, new subtypes visible to subClassesOf at once, replace and delete.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { parseRdfXmlStrict } from '../helpers/rdf.ts';
import { subClassesOf } from '../../src/ontology/ontology.ts';
import { parseRdf } from '../../src/rdf/parse.ts';
import { ATYPE } from '../../src/rdf/vocab.ts';
import { storeSize } from '../helpers/store.ts';

const REFERENCE = '/work/shared/ontology-reference';
const refFile = (name: string) => readFileSync(`${REFERENCE}/${name}`, 'utf8');

const SUBTYPE = `@prefix ota: <http://www.opentox.org/algorithmTypes.owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix dc: <http://purl.org/dc/elements/1.1/> .
<http://example.org/onto> a owl:Ontology ; dc:title "Kernel methods" .
<http://example.org/onto#KernelLearning> a owl:Class ; rdfs:subClassOf ota:Classification .
<http://example.org/onto#SVM> a owl:Class ; rdfs:subClassOf <http://example.org/onto#KernelLearning> .
`;

describe('/ontology', () => {
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  const post = (body: string | FormData, type?: string) =>
    fetch(app.url + '/ontology', { method: 'POST', body, headers: { Accept: 'text/uri-list', ...(type ? { 'Content-Type': type } : {}) } });

  it('lists the four built-in ontologies as a uri-list with X-Total-Count', async () => {
    const res = await fetch(app.url + '/ontology', { headers: { Accept: 'text/uri-list' } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
    expect(res.headers.get('x-total-count')).to.equal('4');
    const uris = (await res.text()).trim().split(/\r?\n/);
    expect(uris).to.deep.equal(['algorithmTypes', 'errors', 'opentox', 'service'].map((id) => `${app.url}/ontology/${id}`));
  });

  it('lists them as RDF/XML with dc:title and triple counts by default', async () => {
    const res = await fetch(app.url + '/ontology');
    expect(res.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    const quads = await parseRdfXmlStrict(await res.text());
    const count = quads.find((q) => q.subject.value === `${app.url}/ontology/errors` && q.predicate.value === 'http://rdfs.org/ns/void#triples');
    expect(Number(count?.object.value)).to.equal((await app.deps.store.graph(`${app.url}/ontology/errors`)).length).and.to.be.greaterThan(100);
    expect(quads.some((q) => q.predicate.value.endsWith('/title') && q.object.value === 'OpenTox error codes')).to.equal(true);
  });

  it('pages with page/pagesize, says there is more with Link rel="next"', async () => {
    const first = await fetch(app.url + '/ontology?pagesize=2', { headers: { Accept: 'text/uri-list' } });
    expect((await first.text()).trim().split(/\r?\n/)).to.have.length(2);
    expect(first.headers.get('link')).to.match(/<[^>]*\?pagesize=2&page=1>; rel="next"/);
    const second = await fetch(app.url + '/ontology?pagesize=2&page=1', { headers: { Accept: 'text/uri-list' } });
    expect((await second.text()).trim().split(/\r?\n/)).to.deep.equal([`${app.url}/ontology/opentox`, `${app.url}/ontology/service`]);
    expect(second.headers.get('link')).to.match(/rel="prev"/).and.not.to.match(/rel="next"/);
    const capped = await fetch(app.url + '/ontology?max=1', { headers: { Accept: 'text/uri-list' } });
    expect((await capped.text()).trim().split(/\r?\n/)).to.have.length(1);
  });

  for (const [query, param] of [['page=-1', 'page'], ['pagesize=0', 'pagesize'], ['pagesize=ten', 'pagesize'], ['max=1.5', 'max']]) {
    it(`?${query} answers 400 naming ${param} and its range`, async () => {
      const res = await fetch(`${app.url}/ontology?${query}`, { headers: { Accept: 'text/plain' } });
      expect(res.status).to.equal(400);
      expect(await res.text()).to.match(new RegExp(`^400 InvalidParameter: parameter ${param}=.* expected an integer from \\d+ to \\d+`));
    });
  }

  it('GET /ontology/errors answers Turtle with the spec\'s example codes', async () => {
    const res = await fetch(app.url + '/ontology/errors', { headers: { Accept: 'text/turtle' } });
    expect(res.status).to.equal(200);
    const text = await res.text();
    for (const code of ['PredictionFeatureNotInDataset', 'ServiceUnavailable', 'NotAFeatureRepresentation', 'CannotGeneratePredictrionFeature']) {
      expect(text).to.contain(`oterr:${code}`);
    }
  });

  it('GET of an unknown ontology answers 404', async () => {
    const res = await fetch(app.url + '/ontology/nope', { headers: { Accept: 'text/plain' } });
    expect(res.status).to.equal(404);
    expect(await res.text()).to.match(/^404 NotFound: no ontology/);
  });

  it('POST loads the published AlgorithmTypes.owl (RDF/XML body) into a new graph', async () => {
    const res = await post(refFile('AlgorithmTypes.owl'), 'application/rdf+xml');
    expect(res.status).to.equal(200);
    const uri = (await res.text()).trim();
    expect(uri).to.match(new RegExp(`^${app.url}/ontology/[0-9a-f]{12}$`));
    expect(res.headers.get('location')).to.equal(uri);
    const expected = await parseRdf(refFile('AlgorithmTypes.owl'), 'rdfxml', uri);
    // The published file states some triples twice; a graph holds each once.
    const distinct = new Set(expected.map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`)).size;
    expect(await app.deps.store.graph(uri)).to.have.length(distinct);
    const got = await fetch(uri, { headers: { Accept: 'application/n-triples' } });
    expect((await got.text()).trim().split('\n')).to.have.length(distinct);
    // No dc:title in the published file: its owl:Ontology's rdfs:comment names it.
    const list = await (await fetch(app.url + '/ontology', { headers: { Accept: 'text/turtle' } })).text();
    expect(list).to.contain('"Algorithm Types, defined by OpenTox"');
  });

  it('POST loads the published opentox.owl as a multipart file', async () => {
    const form = new FormData();
    form.append('title', 'OpenTox API as published');
    form.append('file', new Blob([refFile('opentox.owl')], { type: 'application/rdf+xml' }), 'opentox.owl');
    const res = await post(form);
    expect(res.status).to.equal(200);
    const uri = (await res.text()).trim();
    expect((await app.deps.store.graph(uri)).length).to.be.greaterThan(500);
    const list = await fetch(app.url + '/ontology', { headers: { Accept: 'text/turtle' } });
    expect(await list.text()).to.contain('"OpenTox API as published"');
  });

  it('POST reads a multipart file by its extension when its type is generic', async () => {
    const form = new FormData();
    form.append('file', new Blob([refFile('AlgorithmTypes.owl')], { type: 'application/octet-stream' }), 'AlgorithmTypes.owl');
    const res = await post(form);
    expect(res.status).to.equal(200);
    expect((await app.deps.store.graph((await res.text()).trim())).length).to.be.greaterThan(100);
  });

  for (const [type, body] of [
    ['application/ld+json', JSON.stringify({ '@id': 'http://example.org/onto#X', 'http://www.w3.org/2000/01/rdf-schema#subClassOf': { '@id': 'http://www.opentox.org/algorithmTypes.owl#Regression' } })],
    ['text/n3', '<http://example.org/onto#X> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://www.opentox.org/algorithmTypes.owl#Regression> .'],
  ]) {
    it(`POST accepts ${type}`, async () => {
      const res = await post(body!, type);
      expect(res.status).to.equal(200);
      const uri = (await res.text()).trim();
      expect(await app.deps.store.graph(uri)).to.have.length(1);
      await fetch(uri, { method: 'DELETE' });
    });
  }

  it('a POSTed subtype is at once a subclass for subClassesOf; DELETE removes it', async () => {
    expect(await subClassesOf(app.deps.store, ATYPE.Learning.value)).not.to.include('http://example.org/onto#SVM');
    const res = await post(SUBTYPE, 'text/turtle');
    const uri = (await res.text()).trim();
    const subs = await subClassesOf(app.deps.store, ATYPE.Learning.value);
    expect(subs).to.include.members([ATYPE.Learning.value, ATYPE.Classification.value, 'http://example.org/onto#KernelLearning', 'http://example.org/onto#SVM']);
    expect(subs).not.to.include(ATYPE.DescriptorCalculation.value);
    const list = await (await fetch(app.url + '/ontology', { headers: { Accept: 'text/turtle' } })).text();
    expect(list).to.contain('"Kernel methods"');
    const del = await fetch(uri, { method: 'DELETE' });
    expect(del.status).to.equal(200);
    expect(await subClassesOf(app.deps.store, ATYPE.Learning.value)).not.to.include('http://example.org/onto#SVM');
    expect((await fetch(uri)).status).to.equal(404);
  });

  it('PUT replaces an uploaded ontology, and creates one under a new id with 201', async () => {
    const created = await fetch(app.url + '/ontology/kernels', { method: 'PUT', body: SUBTYPE, headers: { 'Content-Type': 'text/turtle' } });
    expect(created.status).to.equal(201);
    const uri = `${app.url}/ontology/kernels`;
    expect(await app.deps.store.graph(uri)).to.have.length(6);
    const replaced = await fetch(uri, { method: 'PUT', body: '<http://example.org/a> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://example.org/b> .', headers: { 'Content-Type': 'application/n-triples' } });
    expect(replaced.status).to.equal(200);
    expect(await app.deps.store.graph(uri)).to.have.length(1);
    expect(await subClassesOf(app.deps.store, ATYPE.Learning.value)).not.to.include('http://example.org/onto#SVM');
    await fetch(uri, { method: 'DELETE' });
  });

  for (const method of ['DELETE', 'PUT']) {
    it(`${method} of a built-in ontology answers 403 and changes nothing`, async () => {
      const before = (await storeSize(app.deps.store));
      const res = await fetch(app.url + '/ontology/algorithmTypes', { method, body: method === 'PUT' ? SUBTYPE : undefined, headers: { Accept: 'text/plain', 'Content-Type': 'text/turtle' } });
      expect(res.status).to.equal(403);
      expect(await res.text()).to.match(/^403 Forbidden: cannot (delete|replace) the built-in ontology/);
      expect((await storeSize(app.deps.store))).to.equal(before);
    });
  }

  it('built-ins are not rewritten at a restart when unchanged, and come back after one', async () => {
    const dir = app.dataDir;
    const port = new URL(app.url).port;
    const size = (await storeSize(app.deps.store));
    await app.close({ keepData: true });
    app = await startApp({ baseUrl: `http://127.0.0.1:${port}` }, dir);
    // A fixed baseUrl keeps the graph names; the journal gained nothing for the built-ins.
    expect((await storeSize(app.deps.store))).to.equal(size);
  });
});
