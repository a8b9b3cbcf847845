// /sparql: SPARQL 1.1 Protocol GET and POST, every results format, CONSTRUCT
// in RDF syntaxes, read-only, positions of syntax errors, time limit, and the API staying
// responsive while a heavy query runs.
import { expect } from 'chai';
import { DataFactory, Parser } from 'n3';
import { startApp, type TestApp } from '../helpers/app.ts';
import { parseRdfXmlStrict } from './root.test.ts';
import { DC, OT, RDF } from '../../src/rdf/vocab.ts';
import { parseSparqlQuery } from '../../src/store/sparqlQuery.ts';
import { storeSize } from '../helpers/store.ts';
import { remoteStore } from '../helpers/engines.ts';
import { until } from '../helpers/until.ts';

const { quad, namedNode, literal } = DataFactory;
const G1 = 'http://example.org/compound/1';
const G2 = 'http://example.org/compound/2';
// Only compounds: the built-in ontologies loaded at start have dc:titles too.
const TITLES = `PREFIX dc: <${DC.ns}> PREFIX ot: <${OT.ns}> SELECT ?s ?t WHERE { ?s a ot:Compound ; dc:title ?t } ORDER BY ?s`;

async function fill(app: TestApp): Promise<void> {
  await app.deps.store.replaceGraph(G1, [quad(namedNode(G1), RDF.type, OT.Compound), quad(namedNode(G1), DC.title, literal('benzene'))]);
  await app.deps.store.replaceGraph(G2, [quad(namedNode(G2), RDF.type, OT.Compound), quad(namedNode(G2), DC.title, literal('phenol, "quoted"'))]);
}

const get = (app: TestApp, query: string, accept?: string, extra = '') =>
  fetch(`${app.url}/sparql?query=${encodeURIComponent(query)}${extra}`, { headers: accept ? { Accept: accept } : {} });

describe('SPARQL endpoint', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp();
    await fill(app);
  });
  after(async () => { await app.close(); });

  it('GET answers SELECT as SPARQL JSON by default, over the union of all graphs', async () => {
    const res = await get(app, TITLES);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/sparql-results\+json/);
    const body = (await res.json()) as { head: { vars: string[] }; results: { bindings: Array<Record<string, { value: string }>> } };
    expect(body.head.vars).to.deep.equal(['s', 't']);
    expect(body.results.bindings.map((b) => b.t!.value)).to.deep.equal(['benzene', 'phenol, "quoted"']);
  });

  const formats: Array<[string, RegExp, (body: string) => void]> = [
    ['application/sparql-results+json', /^application\/sparql-results\+json/, (b) => expect(JSON.parse(b).results.bindings).to.have.length(2)],
    ['application/sparql-results+xml', /^application\/sparql-results\+xml/, (b) => expect(b).to.match(/<sparql xmlns="http:\/\/www.w3.org\/2005\/sparql-results#">/).and.to.contain('<literal>benzene</literal>')],
    ['text/csv', /^text\/csv/, (b) => expect(b.split(/\r?\n/).filter(Boolean)).to.deep.equal(['s,t', `${G1},benzene`, `${G2},"phenol, ""quoted"""`])],
    ['text/tab-separated-values', /^text\/tab-separated-values/, (b) => expect(b.split(/\r?\n/).filter(Boolean)).to.deep.equal(['?s\t?t', `<${G1}>\t"benzene"`, `<${G2}>\t"phenol, \\"quoted\\""`])],
    ['image/png', /^application\/sparql-results\+json/, (b) => expect(JSON.parse(b).head.vars).to.deep.equal(['s', 't'])],
  ];
  for (const [accept, type, check] of formats) {
    it(`SELECT with Accept ${accept}`, async () => {
      const res = await get(app, TITLES, accept);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(type);
      check(await res.text());
    });
  }

  it('ASK answers a boolean in JSON and XML', async () => {
    const ask = `ASK { <${G1}> ?p ?o }`;
    expect(await (await get(app, ask)).json()).to.deep.include({ boolean: true });
    expect(await (await get(app, ask, 'application/sparql-results+xml')).text()).to.contain('<boolean>true</boolean>');
  });

  it('POST as a form and as application/sparql-query', async () => {
    const form = await fetch(`${app.url}/sparql`, { method: 'POST', body: new URLSearchParams({ query: TITLES }) });
    expect(form.status).to.equal(200);
    expect(((await form.json()) as { results: { bindings: unknown[] } }).results.bindings).to.have.length(2);
    const raw = await fetch(`${app.url}/sparql`, { method: 'POST', headers: { 'Content-Type': 'application/sparql-query', Accept: 'text/csv' }, body: TITLES });
    expect(raw.status).to.equal(200);
    expect(raw.headers.get('content-type')).to.match(/^text\/csv/);
    expect(await raw.text()).to.contain('benzene');
  });

  it('CONSTRUCT answers RDF/XML by default and Turtle on request', async () => {
    const construct = `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${G1}> { ?s ?p ?o } }`;
    const xml = await get(app, construct);
    expect(xml.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    expect(await parseRdfXmlStrict(await xml.text())).to.equal(2);
    const ttl = await get(app, construct, 'text/turtle');
    expect(ttl.headers.get('content-type')).to.match(/^text\/turtle/);
    const quads = new Parser({ format: 'text/turtle' }).parse(await ttl.text());
    expect(quads.map((q) => q.object.value).sort()).to.deep.equal(['benzene', OT.Compound.value]);
    for (const type of ['application/n-triples', 'text/plain', 'text/n3', 'application/ld+json']) {
      const res = await get(app, construct, type);
      expect(res.headers.get('content-type'), type).to.match(new RegExp('^' + type.replace('+', '\\+')));
      expect(await res.text(), type).to.contain('benzene');
    }
  });

  it('DESCRIBE a resource', async () => {
    const res = await get(app, `DESCRIBE <${G2}>`, 'application/n-triples');
    expect(res.status).to.equal(200);
    expect(await res.text()).to.contain('phenol');
  });

  it('FROM, FROM NAMED and default-graph-uri choose the dataset', async () => {
    const from = await (await get(app, `SELECT ?t FROM <${G1}> WHERE { ?s <${DC.title.value}> ?t }`, 'text/csv')).text();
    expect(from.trim().split(/\r?\n/)).to.deep.equal(['t', 'benzene']);
    const named = await (await get(app, `SELECT ?g FROM NAMED <${G2}> WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g`, 'text/csv')).text();
    expect(named.trim().split(/\r?\n/)).to.deep.equal(['g', G2]);
    const param = await (await get(app, `SELECT ?t WHERE { ?s <${DC.title.value}> ?t }`, 'text/csv', `&default-graph-uri=${encodeURIComponent(G2)}`)).text();
    expect(param.trim().split(/\r?\n/)).to.deep.equal(['t', '"phenol, ""quoted"""']);
  });

  it('sees a write acknowledged just before the query', async () => {
    const g = 'http://example.org/compound/3';
    await app.deps.store.replaceGraph(g, [quad(namedNode(g), DC.title, literal('toluene'))]);
    expect(await (await get(app, `ASK { <${g}> ?p "toluene" }`)).json()).to.deep.include({ boolean: true });
    await app.deps.store.dropGraph(g);
    expect(await (await get(app, `ASK { <${g}> ?p ?o }`)).json()).to.deep.include({ boolean: false });
  });

  it('an allow-list of graphs restricts what a query sees (hook for access control)', async () => {
    const query = parseSparqlQuery(TITLES, app.url + '/');
    const body = await app.deps.store.sparql(query, { graphs: [G2], resultsFormat: 'text/csv' });
    expect(body.trim().split(/\r?\n/)).to.have.length(2).and.to.include(`${G2},"phenol, ""quoted"""`);
  });

  const updates: Array<[string, () => Promise<Response>]> = [
    ['GET ?query=INSERT DATA', () => get(app, 'INSERT DATA { GRAPH <http://x/g> { <http://x/a> <http://x/b> "c" } }')],
    ['POST form update=', () => fetch(`${app.url}/sparql`, { method: 'POST', body: new URLSearchParams({ update: 'DROP ALL' }) })],
    ['POST application/sparql-update', () => fetch(`${app.url}/sparql`, { method: 'POST', headers: { 'Content-Type': 'application/sparql-update' }, body: 'CLEAR ALL' })],
    ['POST sparql-query body DROP', () => fetch(`${app.url}/sparql`, { method: 'POST', headers: { 'Content-Type': 'application/sparql-query' }, body: `DROP GRAPH <${G1}>` })],
    ['POST form query=LOAD', () => fetch(`${app.url}/sparql`, { method: 'POST', body: new URLSearchParams({ query: 'LOAD <http://example.org/x>' }) })],
  ];
  for (const [name, send] of updates) {
    it(`an update (${name}) answers 403 SparqlUpdateForbidden and changes nothing`, async () => {
      const before = (await storeSize(app.deps.store));
      const res = await send();
      expect(res.status).to.equal(403);
      expect(await res.text()).to.contain('errors.owl#SparqlUpdateForbidden');
      expect((await storeSize(app.deps.store))).to.equal(before);
    });
  }

  it('a syntax error answers 400 naming line and column', async () => {
    const res = await get(app, 'SELECT * WHERE {\n  ?s ?p }', 'text/plain');
    expect(res.status).to.equal(400);
    const text = await res.text();
    expect(text).to.match(/SparqlSyntaxError/);
    expect(text).to.match(/line 2, column 9/);
  });

  it('a request without a query answers 400; an unknown body type 400', async () => {
    const none = await fetch(`${app.url}/sparql`, { headers: { Accept: 'text/plain' } });
    expect(none.status).to.equal(400);
    expect(await none.text()).to.match(/MissingParameter/);
    const json = await fetch(`${app.url}/sparql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(json.status).to.equal(400);
    expect(await json.text()).to.contain('errors.owl#UnsupportedMediaType');
  });
});

/** Every triple with every other, four times over: far more work than any time limit. */
const CROSS = 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g1 { ?a ?b ?c } GRAPH ?g2 { ?d ?e ?f } GRAPH ?g3 { ?h ?i ?j } GRAPH ?g4 { ?k ?l ?m } }';

async function fillMany(app: TestApp, n: number): Promise<void> {
  await Promise.all(Array.from({ length: n }, (_, i) => {
    const g = `http://example.org/r/${i}`;
    return app.deps.store.replaceGraph(g, [quad(namedNode(g), DC.title, literal(`r${i}`)), quad(namedNode(g), DC.description, literal(`d${i}`))]);
  }));
}

describe('SPARQL endpoint under heavy queries', () => {
  it('a query past the time limit answers 503 QueryTimeout; the next query works', async () => {
    const app = await startApp({ sparqlTimeoutMs: 400 });
    try {
      await fillMany(app, 100);
      const res = await get(app, CROSS, 'text/plain');
      expect(res.status).to.equal(503);
      expect(await res.text()).to.match(/QueryTimeout.*400 ms/s);
      // The embedded replica is stopped with the query, so the next one runs at once. A
      // remote store goes on with the abandoned query for a while (Virtuoso: about 1.5 s of CPU
      // here), and a cheap query may meet the same limit meanwhile: it must then
      // fail the same way, and work once the store has let go.
      const failures: string[] = [];
      const after = await until('a query that works after the timeout', async () => {
        const res = await get(app, 'ASK { ?s ?p "r7" }', 'application/sparql-results+json');
        if (res.status === 200) return res;
        failures.push(`${res.status} ${await res.text()}`);
        return remoteStore ? undefined : res;
      }, 20_000, { everyMs: 250 });
      expect(after.status, failures.join('\n')).to.equal(200);
      expect(failures.filter((f) => !/^503 .*QueryTimeout/s.test(f)), 'failures other than the time limit').to.deep.equal([]);
      expect(await after.json()).to.deep.include({ boolean: true });
    } finally {
      await app.close();
    }
  });

  it('the API answers within 500 ms while a cross-product query runs', async () => {
    const app = await startApp({ sparqlTimeoutMs: 20_000 });
    try {
      await fillMany(app, 100);
      await (await get(app, 'ASK { ?s ?p ?o }')).text(); // the replica is loaded
      const heavy = new AbortController();
      let settled = false;
      void fetch(`${app.url}/sparql?query=${encodeURIComponent(CROSS)}`, { signal: heavy.signal }).catch(() => undefined).finally(() => { settled = true; });
      await new Promise((r) => setTimeout(r, 300));
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const res = await fetch(app.url + '/', { headers: { Accept: 'text/uri-list' } });
        expect(res.status).to.equal(200);
        expect(await res.text()).to.contain('/sparql');
        expect(performance.now() - started, 'GET / latency in ms').to.be.below(500);
      }
      expect(settled, 'the heavy query was still running').to.equal(false);
      heavy.abort();
    } finally {
      await app.close();
    }
  });
});
