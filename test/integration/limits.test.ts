// Limits that protect the service (src/http/limits.ts): each is configurable and each refusal
// is a 413 (429 for the job quota) report naming the limit's option, with nothing stored.
// Also the defects the fuzzing found around them.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { describeEmbedded } from '../helpers/engines.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';
import { fingerprint } from '../helpers/fuzz.ts';
import { followTask, lines } from '../helpers/datasets.ts';

const post = (app: TestApp, p: string, type: string, body: string, extra: Record<string, string> = {}) =>
  fetch(app.url + p, { method: 'POST', headers: { 'Content-Type': type, Accept: 'text/plain', ...extra }, body });

/** Asserts a 413 LimitExceeded report naming `option`, and an unchanged store. */
async function refused(app: TestApp, send: () => Promise<Response>, option: string, status = 413): Promise<string> {
  const before = await fingerprint(app.url);
  const res = await send();
  const text = await res.text();
  expect(res.status, text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^text\/plain/);
  expect(text).to.match(status === 413 ? /^413 LimitExceeded: / : /^429 JobQuotaExceeded: /);
  expect(text).to.include(option);
  expect(await fingerprint(app.url)).to.equal(before);
  return text;
}

const deepQuery = (n: number) => 'SELECT * WHERE ' + '{ '.repeat(n) + '}'.repeat(n);

describe('limits that protect the service', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startApp({ maxAtoms: 5, maxDatasetRows: 3, maxRdfTriples: 3, maxNesting: 8, maxSparqlLength: 200, maxParameters: 5 });
  });
  after(async () => { await app.close(); });

  it('MAX_ATOMS: a structure with more atoms is refused, one within is created', async () => {
    const text = await refused(app, () => post(app, '/compound', 'chemical/x-daylight-smiles', 'CCCCCC'), 'MAX_ATOMS');
    expect(text).to.match(/the number of atoms of the structure is 6, more than the limit of 5 \(MAX_ATOMS\)/);
    expect((await post(app, '/compound', 'chemical/x-daylight-smiles', 'CCCCC')).status).to.equal(200);
  });

  it('MAX_DATASET_ROWS: CSV and SD uploads with more rows are refused before anything is stored', async () => {
    const text = await refused(app, () => post(app, '/dataset', 'text/csv', 'SMILES,y\nC,1\nCC,2\nCCC,3\nCCCC,4\n'), 'MAX_DATASET_ROWS');
    expect(text).to.match(/rows of the dataset is 4, more than the limit of 3/);
    const sdf = readFileSync(sharedData('opentox-test', 'acetaldehyde.sdf'), 'utf8').repeat(4);
    await refused(app, () => post(app, '/dataset', 'chemical/x-mdl-sdfile', sdf), 'MAX_DATASET_ROWS');
    expect((await post(app, '/dataset', 'text/csv', 'SMILES,y\nC,1\nCC,2\nCCC,3\n')).status).to.equal(200);
  });

  it('MAX_RDF_TRIPLES: an RDF body with more triples is refused', async () => {
    const ttl = '@prefix e: <http://e.org/> .\ne:a e:p 1, 2, 3, 4 .\n';
    const text = await refused(app, () => post(app, '/ontology', 'text/turtle', ttl), 'MAX_RDF_TRIPLES');
    expect(text).to.match(/triples of the RDF body is 4, more than the limit of 3/);
  });

  it('MAX_NESTING: deeply nested Turtle, JSON-LD and RDF/XML bodies are refused', async () => {
    const n = 9;
    const bodies: Array<[string, string]> = [
      ['text/turtle', '<http://e.org/a> <http://e.org/p> ' + '[ <http://e.org/p> '.repeat(n) + '"x"' + ' ]'.repeat(n) + ' .'],
      ['application/ld+json', '{"@id":"http://e.org/a",' + '"http://e.org/p":{'.repeat(n) + '"@value":"x"' + '}'.repeat(n) + '}'],
      ['application/rdf+xml', '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:e="http://e.org/"><rdf:Description rdf:about="http://e.org/a">' + '<e:p><rdf:Description>'.repeat(n) + '</rdf:Description></e:p>'.repeat(n) + '</rdf:Description></rdf:RDF>'],
    ];
    for (const [type, body] of bodies) {
      const text = await refused(app, () => post(app, '/feature', type, body), 'MAX_NESTING');
      expect(text, type).to.match(/nesting depth of the RDF body is \d+, more than the limit of 8/);
    }
  });

  it('MAX_NESTING and MAX_SPARQL_LENGTH: deep or long SPARQL queries are refused, GET and POST', async () => {
    const text = await refused(app, () => post(app, '/sparql', 'application/sparql-query', deepQuery(9)), 'MAX_NESTING');
    expect(text).to.match(/nesting depth of the SPARQL query is 9, more than the limit of 8/);
    await refused(app, () => fetch(`${app.url}/sparql?query=${encodeURIComponent(deepQuery(9))}`, { headers: { Accept: 'text/plain' } }), 'MAX_NESTING');
    const long = `SELECT * WHERE { ?s ?p "${'x'.repeat(200)}" }`;
    await refused(app, () => post(app, '/sparql', 'application/sparql-query', long), 'MAX_SPARQL_LENGTH');
    // Brackets inside strings and IRIs do not nest.
    const res = await post(app, '/sparql', 'application/sparql-query', 'ASK { ?s ?p "((((((((((" }', { Accept: 'application/sparql-results+json' });
    expect(res.status).to.equal(200);
  });

  it('MAX_PARAMETERS: query strings, form bodies and multipart bodies with more parameters are refused', async () => {
    const many = Array.from({ length: 6 }, (_, i) => `p${i}=${i}`).join('&');
    await refused(app, () => fetch(`${app.url}/compound?${many}`, { headers: { Accept: 'text/plain' } }), 'MAX_PARAMETERS');
    await refused(app, () => post(app, '/algorithm/physchem', 'application/x-www-form-urlencoded', many), 'MAX_PARAMETERS');
    const parts = Array.from({ length: 6 }, (_, i) => `--XX\r\nContent-Disposition: form-data; name="p${i}"\r\n\r\n${i}\r\n`).join('') + '--XX--\r\n';
    await refused(app, () => post(app, '/compound', 'multipart/form-data; boundary=XX', parts), 'MAX_PARAMETERS');
  });

  it('the real shared RDF files stay within the default nesting limit', async () => {
    const other = await startApp({ syncWindowMs: 20_000 });
    try {
      for (const file of ['feature.rdf', 'import_dataset2.rdf', 'dataset_tum_500.rdf']) {
        const res = await post(other, '/dataset', 'application/rdf+xml', readFileSync(sharedData('ambit', file), 'utf8'));
        expect(res.status, file).to.be.oneOf([200, 202, 400]);
        expect(await res.text(), file).not.to.include('MAX_NESTING');
      }
    } finally {
      await other.close();
    }
  });
});

// Embedded only: the crash is of the in-process store's WebAssembly replica, which the remote mode has not.
describeEmbedded('a deeply nested SPARQL query does not break the endpoint for everyone', function () {
  this.timeout(120_000);
  let app: TestApp;
  // Nesting unlimited, so the query reaches the store and crashes its WebAssembly instance.
  before(async () => { app = await startApp({ maxNesting: 0 }); });
  after(async () => { await app.close(); });

  it('later queries are answered after the crash', async () => {
    const count = 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }';
    const before = await fingerprint(app.url);
    const crash = await post(app, '/sparql', 'application/sparql-query', deepQuery(1500));
    expect(crash.status).to.be.within(400, 499);
    await crash.text();
    const res = await post(app, '/sparql', 'application/sparql-query', count, { Accept: 'application/sparql-results+json' });
    expect(res.status, await res.clone().text()).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/sparql-results\+json/);
    expect(await fingerprint(app.url)).to.equal(before);
  });
});

describe('JOB_QUOTA: one client cannot fill the job queue', function () {
  this.timeout(180_000);
  let app: TestApp;
  before(async () => { app = await startApp({ jobQuota: 1 }); });
  after(async () => { await app.close(); });

  it('a second job while the first runs answers 429 with Retry-After, and leaves nothing behind', async () => {
    // Larger than the inline limit, so each upload runs as a task.
    const csv = readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8');
    const first = await post(app, '/dataset', 'text/csv', csv, { Accept: 'text/uri-list' });
    expect(first.status).to.equal(202);
    const task = (await first.text()).trim();
    const before = await fingerprint(app.url);
    const second = await post(app, '/dataset', 'text/csv', csv);
    const text = await second.text();
    expect(second.status, text).to.equal(429);
    const retry = second.headers.get('retry-after');
    expect(retry).to.match(/^\d+$/);
    // draft-ietf-httpapi-ratelimit-headers: a quota of 1 job at once, none left until Retry-After.
    expect(second.headers.get('ratelimit-policy')).to.equal('"jobs";q=1;qu="concurrent-requests"');
    expect(second.headers.get('ratelimit')).to.equal(`"jobs";r=0;t=${retry}`);
    expect(text).to.match(/^429 JobQuotaExceeded: address .* already has 1 jobs queued or running: the limit JOB_QUOTA is 1/);
    const uploads = path.join(app.dataDir, 'uploads');
    expect(await fingerprint(app.url)).to.equal(before);
    // The first job's file only: the refused upload left no file.
    expect(existsSync(uploads) ? readdirSync(uploads) : []).to.have.length.at.most(1);
    // Cancelling the first job frees the client's quota.
    expect((await fetch(task, { method: 'DELETE' })).status).to.be.below(300);
    let third: Response | undefined;
    for (let i = 0; i < 100; i++) {
      third = await post(app, '/dataset', 'text/csv', 'SMILES,y\nC,1\n', { Accept: 'text/uri-list' });
      if (third.status !== 429) break;
      await third.text();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(third?.status, 'after the first job ended, the quota is free again').to.equal(200);
  });

  it('every route that starts a job counts it against its client: descriptors, learning, prediction, validation, conformers', async () => {
    const form = (f: Record<string, string>) => ({ method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams(f) });
    const uri = async (res: Response) => {
      const text = (await res.text()).trim();
      expect(res.status, text).to.be.oneOf([200, 202]);
      return res.status === 202 ? (await followTask(text)).body : text;
    };
    // Made before the quota is taken: a dataset small enough to be stored without a task, and a model.
    const dataset = await uri(await post(app, '/dataset', 'text/csv', 'SMILES,Activity\nCCO,1\nCCCO,0\nCCCCO,1\nc1ccccc1,0\nCC(=O)O,1\nCCN,0\n', { Accept: 'text/uri-list' }));
    const activity = (await lines(`${dataset}/features`))[0]!;
    const model = await uri(await fetch(`${app.url}/algorithm/knn`, form({ dataset_uri: dataset, prediction_feature: activity })));
    const compound = (await lines(`${dataset}/compounds`))[0]!;
    // One upload task takes the client's only place.
    const first = await post(app, '/dataset', 'text/csv', readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8'), { Accept: 'text/uri-list' });
    expect(first.status).to.equal(202);
    const task = (await first.text()).trim();
    try {
      const jobs: Array<[string, Record<string, string>]> = [
        [`${app.url}/algorithm/physchem`, { dataset_uri: dataset }],
        [`${app.url}/algorithm/knn`, { dataset_uri: dataset, prediction_feature: activity }],
        [model, { dataset_uri: dataset }],
        [`${app.url}/validation/crossvalidation`, { algorithm_uri: `${app.url}/algorithm/knn`, dataset_uri: dataset, prediction_feature: activity, num_folds: '2' }],
        [`${compound}/conformer`, { generate: '1' }],
      ];
      for (const [target, fields] of jobs) {
        const res = await fetch(target, form(fields));
        const text = await res.text();
        expect(res.status, `${target}: ${text}`).to.equal(429);
        expect(text).to.match(/^429 JobQuotaExceeded: address .* already has 1 jobs queued or running/);
      }
    } finally {
      await fetch(task, { method: 'DELETE' });
    }
  });
});

describe('defects the fuzzing found', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  it('CML with an empty atom array is a 400 report, not a toolkit exception (500)', async () => {
    const before = await fingerprint(app.url);
    const res = await post(app, '/compound', 'chemical/x-cml', '<molecule xmlns="http://www.xml-cml.org/schema"><atomArray></atomArray></molecule>');
    expect(res.status).to.equal(400);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    expect(await res.text()).to.match(/^400 InvalidStructure: CML: no atoms/);
    expect(await fingerprint(app.url)).to.equal(before);
    // The toolkit still works afterwards.
    expect((await post(app, '/compound', 'chemical/x-daylight-smiles', 'CCO')).status).to.equal(200);
  });

  it('CML that is only "<?" is a 400 report, not a 500', async () => {
    const res = await post(app, '/compound', 'chemical/x-cml', '<?');
    expect(res.status).to.equal(400);
    expect(await res.text()).to.match(/^400 InvalidStructure: CML: /);
  });

  it('a multipart body that ends inside a file part is a 400 report and the service keeps running', async () => {
    const truncated = '--XX\r\nContent-Disposition: form-data; name="file"; filename="f"\r\nContent-Type: chemical/x-daylight-smiles\r\n\r\nCCO';
    for (const p of ['/compound', '/dataset']) {
      const res = await post(app, p, 'multipart/form-data; boundary=XX', truncated);
      expect(res.status, p).to.equal(400);
      expect(await res.text()).to.match(/^400 BadRequest: malformed multipart\/form-data: Unexpected end of form/);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect((await fetch(app.url + '/compound', { headers: { Accept: 'text/uri-list' } })).status).to.equal(200);
  });

  it('a SPARQL query of only a comment or a prologue is a 400 report, not a 500', async () => {
    for (const query of ['#', 'PREFIX e: <http://e.org/>', '  # nothing\n']) {
      const res = await fetch(`${app.url}/sparql?query=${encodeURIComponent(query)}`, { headers: { Accept: 'text/plain' } });
      expect(res.status, query).to.equal(400);
      expect(await res.text()).to.match(/^400 MissingParameter: no SPARQL query/);
    }
  });

  it('a dataset read with a compound_uris[] value that is no IRI is a 400 report, not a 500', async () => {
    const up = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: 'SMILES,y\nCCO,1\n' });
    const dataset = (await up.text()).trim();
    for (const value of ['C[', 'x', 'http://a b']) {
      const res = await fetch(`${dataset}?${new URLSearchParams({ 'compound_uris[]': value })}`, { headers: { Accept: 'text/plain' } });
      expect(res.status, value).to.equal(400);
      expect(await res.text()).to.match(/^400 InvalidIRI: compound_uris\[\] is not a valid absolute IRI/);
    }
  });
});
