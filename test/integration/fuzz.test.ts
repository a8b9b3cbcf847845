// Hostile input, property-based: random and mutated valid inputs (seeded from the real files in
// shared/data and from the service's own representations) sent to the real app over HTTP never
// get a 5xx, never hang, and never change the store when refused. FUZZ_RUNS=5000 for a soak.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';
import { fc, fingerprint, fuzzRuns, fuzzSeed, mutated, send, sendUnchangedWhenRefused } from '../helpers/fuzz.ts';

const runs = (normal: number) => ({ numRuns: fuzzRuns(normal), seed: fuzzSeed(), endOnFailure: true });
const read = (...parts: string[]) => readFileSync(sharedData(...parts), 'utf8');
const csvSmiles = (text: string) => text.split(/\r?\n/).slice(1).map((l) => l.split(',')[0]!.replace(/"/g, '')).filter(Boolean);
const firstSdfRecord = (text: string) => text.slice(0, text.indexOf('$$$$') + 4) + '\n';

const STRUCTURE_TYPES = {
  smiles: 'chemical/x-daylight-smiles',
  molfile: 'chemical/x-mdl-molfile',
  sdf: 'chemical/x-mdl-sdfile',
  mol2: 'chemical/x-mol2',
  cml: 'chemical/x-cml',
  inchi: 'chemical/x-inchi',
} as const;

describe('fuzzing every parser over HTTP (fast-check)', function () {
  this.timeout(300_000);
  let app: TestApp;
  const seeds: Record<string, string[]> = {};
  let compound = '';
  let dataset = '';
  let feature = '';

  before(async () => {
    // A sync window, so small uploads answer their outcome directly and no job runs on behind a case.
    app = await startApp({ syncWindowMs: 20_000, bodyLimit: 1024 * 1024 });
    seeds.smiles = [...csvSmiles(read('opentox-test', 'hamster_carcinogenicity.mini.csv')), ...csvSmiles(read('opentox-test', 'EPAFHM.mini.csv'))];
    for (const smiles of seeds.smiles.slice(0, 3)) {
      const res = await fetch(app.url + '/compound', { method: 'POST', headers: { 'Content-Type': STRUCTURE_TYPES.smiles, Accept: 'text/uri-list' }, body: smiles });
      expect(res.status).to.equal(200);
      compound = (await res.text()).trim();
    }
    for (const [format, type] of Object.entries(STRUCTURE_TYPES)) {
      if (format === 'smiles') continue;
      const res = await fetch(compound, { headers: { Accept: type } });
      expect(res.status, format).to.equal(200);
      seeds[format] = [await res.text()];
    }
    seeds.sdf!.push(read('opentox-test', 'acetaldehyde.sdf'), firstSdfRecord(read('ambit', 'input.sdf')));
    seeds.molfile!.push(firstSdfRecord(read('opentox-test', 'acetaldehyde.sdf')).replace(/\$\$\$\$\n$/, ''));
    seeds.cml!.push(read('ambit', 'diamantane.cml'));
    seeds.csv = ['hamster_carcinogenicity.mini.csv', 'hamster_carcinogenicity.mini.bool_string.csv', 'EPAFHM.mini.csv', 'multicolumn.csv', 'wrong_dataset.csv'].map((f) => read('opentox-test', f));
    const upload = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: seeds.csv[0] });
    expect(upload.status).to.equal(200);
    dataset = (await upload.text()).trim();
    const created = await fetch(app.url + '/feature', { method: 'POST', headers: { 'Content-Type': 'application/rdf+xml', Accept: 'text/uri-list' }, body: read('ambit', 'feature.rdf') });
    expect(created.status).to.equal(200);
    feature = (await created.text()).trim();
    seeds.rdfxml = [read('ambit', 'feature.rdf'), read('ambit', 'import_dataset2.rdf')];
    seeds.turtle = [await (await fetch(feature, { headers: { Accept: 'text/turtle' } })).text(), await (await fetch(dataset, { headers: { Accept: 'text/turtle' } })).text()];
    seeds.jsonld = [await (await fetch(feature, { headers: { Accept: 'application/ld+json' } })).text()];
  });
  after(async () => { await app?.close(); });

  for (const [format, type] of Object.entries(STRUCTURE_TYPES)) {
    it(`POST /compound with mutated ${format}`, async () => {
      await fc.assert(fc.asyncProperty(mutated(seeds[format]!), async (body) => {
        await sendUnchangedWhenRefused(app.url, '/compound', { method: 'POST', headers: { 'Content-Type': type, Accept: 'text/plain' }, body }, `${format} ${JSON.stringify(body.slice(0, 200))}`);
      }), runs(40));
    });
  }

  const DATASET_TYPES: Array<[string, string]> = [['csv', 'text/csv'], ['sdf', STRUCTURE_TYPES.sdf], ['rdfxml', 'application/rdf+xml'], ['turtle', 'text/turtle']];
  for (const [format, type] of DATASET_TYPES) {
    it(`POST /dataset with mutated ${format}`, async () => {
      await fc.assert(fc.asyncProperty(mutated(seeds[format]!), async (body) => {
        await sendUnchangedWhenRefused(app.url, '/dataset', { method: 'POST', headers: { 'Content-Type': type, Accept: 'text/plain' }, body }, `${format} dataset ${JSON.stringify(body.slice(0, 200))}`);
      }), runs(25));
    });
  }

  const RDF_TYPES: Array<[string, string]> = [['rdfxml', 'application/rdf+xml'], ['turtle', 'text/turtle'], ['jsonld', 'application/ld+json']];
  for (const [format, type] of RDF_TYPES) {
    it(`POST /feature and PUT dataset metadata with mutated ${format}`, async () => {
      const target = fc.constantFrom(['POST', '/feature'], ['PUT', new URL(dataset).pathname + '/metadata'], ['POST', '/ontology']);
      await fc.assert(fc.asyncProperty(target, mutated(seeds[format]!), async ([method, path], body) => {
        await sendUnchangedWhenRefused(app.url, path, { method, headers: { 'Content-Type': type, Accept: 'text/plain' }, body }, `${method} ${path} ${format} ${JSON.stringify(body.slice(0, 200))}`);
      }), runs(30));
    });
  }

  it('multipart uploads with mutated parts and boundaries', async () => {
    const part = (name: string, type: string, text: string) => `--XX\r\nContent-Disposition: form-data; name="${name}"; filename="f"\r\nContent-Type: ${type}\r\n\r\n${text}\r\n`;
    const valid = [part('file', STRUCTURE_TYPES.smiles, 'CCO') + '--XX--\r\n', part('file', 'text/csv', seeds.csv![0]!) + '--XX--\r\n'];
    const header = fc.constantFrom('multipart/form-data; boundary=XX', 'multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary="XX"; charset=x');
    await fc.assert(fc.asyncProperty(fc.constantFrom('/compound', '/dataset'), header, mutated(valid), async (path, type, body) => {
      await sendUnchangedWhenRefused(app.url, path, { method: 'POST', headers: { 'Content-Type': type, Accept: 'text/plain' }, body }, `multipart ${path} ${type} ${JSON.stringify(body.slice(0, 200))}`);
    }), runs(40));
  });

  it('form bodies to algorithms, validation and SPARQL', async () => {
    const forms = [
      `dataset_uri=${encodeURIComponent(dataset)}&prediction_feature=${encodeURIComponent(feature)}&kk=3`,
      `dataset_uri=${encodeURIComponent(dataset)}&MW=true&LogP=false`,
      'query=' + encodeURIComponent('SELECT * WHERE { ?s ?p ?o } LIMIT 1'),
      `algorithm_uris[]=a&algorithm_uris[]=b&dataset_uri=${encodeURIComponent(dataset)}`,
    ];
    const path = fc.constantFrom('/algorithm/knn', '/algorithm/physchem', '/algorithm/logistic', '/sparql', '/validation/report/algorithm_comparison', '/validation/crossvalidation', `${new URL(feature).pathname}`);
    await fc.assert(fc.asyncProperty(path, mutated(forms), async (p, body) => {
      await sendUnchangedWhenRefused(app.url, p, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/plain' }, body }, `form ${p} ${JSON.stringify(body.slice(0, 200))}`);
    }), runs(40));
  });

  it('query parameters on every collection and resource', async () => {
    const paths = ['/compound', new URL(compound).pathname, new URL(compound).pathname + '/image', '/dataset', new URL(dataset).pathname, '/feature', '/task', '/algorithm', '/model', '/sparql', '/ontology', '/validation'];
    const key = fc.oneof(fc.constantFrom('page', 'pagesize', 'max', 'search', 'type', 'compound_uris[]', 'feature_uris[]', 'query', 'w', 'h', 'sameas', 'media', 'threshold', 'format', 'subjectid'), fc.string({ maxLength: 10 }));
    const value = fc.oneof(fc.constantFrom('0', '-1', '1e9', 'NaN', '99999999999999999999', 'c1ccccc1', 'smarts', 'similarity', 'C[', 'http://x/', ''), fc.string({ maxLength: 30 }));
    await fc.assert(fc.asyncProperty(fc.constantFrom(...paths), fc.array(fc.tuple(key, value), { maxLength: 6 }), async (p, params) => {
      const qs = new URLSearchParams(params).toString();
      await send(app.url, `${p}?${qs}`, { headers: { Accept: 'text/plain' } }, `GET ${p}?${qs}`);
    }), runs(60));
  });

  it('headers: Accept, Content-Type, Range and cookies', async () => {
    const paths = [new URL(compound).pathname, new URL(dataset).pathname, new URL(feature).pathname, '/compound', '/sparql?query=' + encodeURIComponent('ASK {}'), '/', '/algorithm'];
    const mediaRange = fc.oneof(fc.constantFrom('*/*', 'text/*', 'chemical/x-mdl-sdfile', 'image/png;q=0', 'text/html', 'application/json;q=abc', ';;;', 'a/b/c', '*/html', 'text/csv;q=0.5, */*;q=0'), fc.string({ maxLength: 40 }));
    const ascii = fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));
    const headers = fc.record({
      Accept: fc.oneof(mediaRange, fc.array(mediaRange, { maxLength: 4 }).map((a) => a.join(', '))),
      'Content-Type': fc.oneof(mediaRange, ascii),
      Range: fc.oneof(fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=5-', 'bytes=10-0', 'bytes=0-0,1-1', 'items=0-9', 'bytes=abc'), ascii),
      Cookie: fc.oneof(fc.constantFrom('subjectid=x', 'subjectid=', 'a=b; subjectid=%ZZ', '=;=;'), ascii),
    }, { requiredKeys: [] });
    await fc.assert(fc.asyncProperty(fc.constantFrom(...paths), headers, fc.constantFrom('GET', 'HEAD', 'OPTIONS'), async (p, h, method) => {
      const clean = Object.fromEntries(Object.entries(h).map(([k, v]) => [k, v.replace(/[^\x20-\x7e\t]/g, '').trim()]));
      await send(app.url, p, { method, headers: clean }, `${method} ${p} ${JSON.stringify(clean)}`);
    }), runs(60));
  });

  it('SPARQL query text, GET and POST, the endpoint answering after each', async () => {
    const queries = ['SELECT * WHERE { ?s ?p ?o } LIMIT 3', 'ASK { ?s a <http://www.opentox.org/api/1.1#Compound> }', 'CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } } LIMIT 2', 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o FILTER(REGEX(STR(?o), "C")) }', 'DESCRIBE <http://example.org/a>'];
    // Deep nesting too: it once crashed the store's WebAssembly instance for every later query.
    const nested = fc.tuple(fc.integer({ min: 1, max: 1500 }), fc.constantFrom(['{ ', '}'], ['{ FILTER(', ') }'], ['{ ?s ?p [ ?q ', '] }'])).map(([n, [open, close]]) => 'SELECT * WHERE ' + open.repeat(n) + close.repeat(n));
    await fc.assert(fc.asyncProperty(fc.oneof(mutated(queries), nested), fc.boolean(), async (query, viaPost) => {
      const init: RequestInit = viaPost ? { method: 'POST', headers: { 'Content-Type': 'application/sparql-query', Accept: 'text/plain, */*;q=0.1' }, body: query } : { headers: { Accept: '*/*' } };
      await send(app.url, viaPost ? '/sparql' : `/sparql?${new URLSearchParams({ query })}`, init, `sparql ${JSON.stringify(query.slice(0, 200))}`);
      await fingerprint(app.url);
    }), runs(40));
  });
});
