// Hostile XML bodies are bounded (src/http/xmlEntities.ts): an entity expansion bomb or
// billion laughs, as a feature, a dataset, an ontology or a CML upload, is a quick 400
// EntityExpansionLimit report with nothing stored; external entities stay unread; deep CML
// is refused by MAX_NESTING; the published ontologies written with namespace entities, as
// Protégé writes OWL, still load.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { fingerprint } from '../helpers/fuzz.ts';
import { canonical, parseRdfXmlStrict } from '../helpers/rdf.ts';
import { ERR } from '../../src/rdf/vocab.ts';
import { BadGateway } from '../../src/errors.ts';
import { fetchRemoteDataset } from '../../src/datasets/datasetRemote.ts';

const REFERENCE = '/work/shared/ontology-reference';
const NS = 'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ot="http://www.opentox.org/api/1.1#" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:owl="http://www.w3.org/2002/07/owl#"';

/** A feature in RDF/XML with `dtd` as its internal subset and `title` as its dc:title. */
const featureXml = (dtd: string, title: string) =>
  `<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [${dtd}]>\n<rdf:RDF ${NS}>\n<ot:Feature rdf:about="http://e.org/feature/1"><dc:title>${title}</dc:title></ot:Feature>\n</rdf:RDF>\n`;
/** One 10,000-character entity used `uses` times: the issue's body at 10,000 (about 40 KB). */
const bombDtd = `<!ENTITY a "${'x'.repeat(10_000)}">`;
const BOMB = featureXml(bombDtd, '&a;'.repeat(10_000));
const LAUGHS_DTD = '<!ENTITY l0 "lol">' + Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
const LAUGHS = featureXml(LAUGHS_DTD, '&l9;');
/** An ontology (OWL in RDF/XML) carrying the expansion in an rdfs:comment. */
const owlXml = (dtd: string, comment: string) =>
  `<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [${dtd}]>\n<rdf:RDF ${NS} xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">\n<owl:Ontology rdf:about="http://e.org/onto"><rdfs:comment>${comment}</rdfs:comment></owl:Ontology>\n</rdf:RDF>\n`;
/** A CML document of one molecule whose name and a property carry `text`. */
const cmlXml = (dtd: string, text: string) =>
  `<?xml version="1.0"?>\n<!DOCTYPE cml [${dtd}]>\n<cml xmlns="http://www.xml-cml.org/schema"><molecule id="m1"><name>${text}</name>` +
  `<atomArray><atom id="a1" elementType="C"/><atom id="a2" elementType="O"/></atomArray><bondArray><bond atomRefs2="a1 a2" order="1"/></bondArray></molecule></cml>\n`;

describe('XML entity expansion and nesting are bounded', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  const post = (p: string, type: string, body: string, accept = 'text/plain') =>
    fetch(app.url + p, { method: 'POST', headers: { 'Content-Type': type, Accept: accept }, body });

  /** Asserts a quick 400 EntityExpansionLimit report (text/plain) and an unchanged store. */
  async function refused(p: string, type: string, body: string, what: RegExp): Promise<string> {
    const before = await fingerprint(app.url);
    const started = Date.now();
    const res = await post(p, type, body);
    const text = await res.text();
    expect(Date.now() - started, 'answered quickly').to.be.below(2000);
    expect(res.status, text).to.equal(400);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    expect(text).to.match(/^400 EntityExpansionLimit: /);
    expect(text).to.match(what);
    expect(text.length, 'the report does not carry the expansion').to.be.below(2000);
    expect(await fingerprint(app.url), 'nothing stored').to.equal(before);
    return text;
  }

  it('the issue\'s body (one 10,000-character entity used 10,000 times) POSTed as a feature is a quick 400 and no feature', async () => {
    expect(BOMB.length).to.be.within(40_000, 41_000);
    const features = await (await fetch(app.url + '/feature', { headers: { Accept: 'text/uri-list' } })).text();
    const text = await refused('/feature', 'application/rdf+xml', BOMB, /the RDF\/XML body: its entity references would produce 100000000 characters, more than the \d+ allowed for a document of \d+ characters/);
    expect(text).to.match(/external entities are never read/);
    expect(await (await fetch(app.url + '/feature', { headers: { Accept: 'text/uri-list' } })).text()).to.equal(features);
  });

  it('the report is an ot:ErrorReport in RDF/XML by default, with the error code and status', async () => {
    const res = await post('/feature', 'application/rdf+xml', BOMB, 'application/rdf+xml');
    expect(res.status).to.equal(400);
    expect(res.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    const quads = await parseRdfXmlStrict(await res.text());
    const value = (local: string) => quads.find((q) => q.predicate.value.endsWith('#' + local))?.object.value;
    expect(value('errorCode')).to.equal(ERR.EntityExpansionLimit.value);
    expect(value('statusCode')).to.equal('400');
  });

  it('as a dataset upload, inline or large enough for a task, it is a 400 before any task, and no dataset', async () => {
    const datasets = await (await fetch(app.url + '/dataset', { headers: { Accept: 'text/uri-list' } })).text();
    await refused('/dataset', 'application/rdf+xml', BOMB, /the RDF\/XML upload: its entity references would produce/);
    // Past the inline limit (64 KB) an upload would become a task: refused before one.
    await refused('/dataset', 'application/rdf+xml', featureXml(bombDtd, '&a;'.repeat(25_000)), /the RDF\/XML upload: /);
    await refused('/dataset', 'application/rdf+xml', LAUGHS, /the RDF\/XML upload: /);
    expect(await (await fetch(app.url + '/dataset', { headers: { Accept: 'text/uri-list' } })).text()).to.equal(datasets);
    expect((await fetch(app.url + '/task', { headers: { Accept: 'text/uri-list' } }).then((r) => r.text())).trim()).to.equal('');
  });

  it('billion laughs (entities referring to entities) is a 400', async () => {
    await refused('/feature', 'application/rdf+xml', LAUGHS, /the RDF\/XML body: its entity references would produce \d+ characters/);
  });

  it('an OWL ontology upload with the same is a 400, raw or as a multipart file', async () => {
    await refused('/ontology', 'application/rdf+xml', owlXml(bombDtd, '&a;'.repeat(10_000)), /the RDF\/XML body: /);
    await refused('/ontology', 'application/rdf+xml', owlXml(LAUGHS_DTD, '&l9;'), /the RDF\/XML body: /);
    const before = await fingerprint(app.url);
    const form = new FormData();
    form.append('file', new Blob([owlXml(bombDtd, '&a;'.repeat(10_000))], { type: 'application/octet-stream' }), 'bomb.owl');
    const res = await fetch(app.url + '/ontology', { method: 'POST', body: form, headers: { Accept: 'text/plain' } });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.match(/^400 EntityExpansionLimit: /);
    expect(await fingerprint(app.url)).to.equal(before);
  });

  it('a CML upload with the same is a 400, as a dataset and as a compound', async () => {
    await refused('/dataset', 'chemical/x-cml', cmlXml(bombDtd, '&a;'.repeat(10_000)), /the CML upload: its entity references would produce 100000000 characters/);
    await refused('/dataset', 'chemical/x-cml', cmlXml(LAUGHS_DTD, '&l9;'), /the CML upload: /);
    await refused('/compound', 'chemical/x-cml', cmlXml(bombDtd, '&a;'.repeat(10_000)), /the CML body: its entity references would produce/);
  });

  it('external entities stay unread: no request reaches their URI and no file comes back', async () => {
    const hits: string[] = [];
    const server: Server = createServer((req, res) => { hits.push(req.url ?? ''); res.end('SECRET-FROM-LOOPBACK'); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      for (const system of [`http://127.0.0.1:${port}/secret`, 'file:///etc/passwd']) {
        const dtd = `<!ENTITY x SYSTEM "${system}">`;
        for (const [p, type, body] of [
          ['/feature', 'application/rdf+xml', featureXml(dtd, '&x;')],
          ['/ontology', 'application/rdf+xml', owlXml(dtd, '&x;')],
          ['/dataset', 'application/rdf+xml', featureXml(dtd, '&x;')],
          ['/dataset', 'chemical/x-cml', cmlXml(dtd, '&x;')],
          ['/compound', 'chemical/x-cml', cmlXml(dtd, '&x;')],
        ]) {
          const text = await refused(p!, type!, body!, /the external entity "x" is never read/);
          expect(text).not.to.match(/root:|SECRET-FROM-LOOPBACK/);
        }
      }
      expect(hits).to.deep.equal([]);
    } finally {
      server.close();
    }
  });

  it('a remote dataset that is an entity bomb fails the fetch quickly (502 naming the bound), nothing stored', async () => {
    const server: Server = createServer((_req, res) => { res.setHeader('Content-Type', 'application/rdf+xml'); res.end(BOMB); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dataset/1`;
    try {
      const before = await fingerprint(app.url);
      const started = Date.now();
      // A loopback peer is refused unless the operator lists it (docs/security.md).
      const deps = { ...app.deps, config: { ...app.deps.config, remoteOrigins: [new URL(uri).origin] } };
      const err = await fetchRemoteDataset(deps, uri).then(() => expect.fail('expected a 502'), (e: unknown) => e as BadGateway);
      expect(Date.now() - started).to.be.below(2000);
      expect(err).to.be.instanceOf(BadGateway);
      expect(err.causes[0]!.message).to.match(/^the RDF\/XML body: its entity references would produce 100000000 characters/);
      expect(await fingerprint(app.url)).to.equal(before);
    } finally {
      server.close();
    }
  });

  it('memory does not grow with repeated attacks', async () => {
    const rss = process.memoryUsage().rss;
    for (let i = 0; i < 5; i++) expect((await post('/feature', 'application/rdf+xml', BOMB)).status).to.equal(400);
    // Each accepted body was 100 MB of text in the store and its caches before the bound.
    expect(process.memoryUsage().rss - rss).to.be.below(200 * 1024 * 1024);
  });

  it('deeply nested CML is refused by MAX_NESTING (413), as a dataset and as a compound, with nothing stored', async () => {
    const deep = `<cml xmlns="http://www.xml-cml.org/schema"><molecule id="m1">${'<scalar>'.repeat(100)}${'</scalar>'.repeat(100)}<atomArray><atom id="a1" elementType="C"/></atomArray></molecule></cml>`;
    for (const p of ['/dataset', '/compound']) {
      const before = await fingerprint(app.url);
      const res = await post(p, 'chemical/x-cml', deep);
      const text = await res.text();
      expect(res.status, text).to.equal(413);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(text).to.match(/^413 LimitExceeded: the nesting depth of the CML (upload|body) is 102, more than the limit of 64 \(MAX_NESTING\)/);
      expect(await fingerprint(app.url)).to.equal(before);
    }
  });

  it('deeply nested RDF/XML (an OWL upload) is refused by MAX_NESTING', async () => {
    const n = 100;
    const body = `<rdf:RDF ${NS}><rdf:Description rdf:about="http://e.org/a">` + '<dc:p><rdf:Description>'.repeat(n) + '</rdf:Description></dc:p>'.repeat(n) + '</rdf:Description></rdf:RDF>';
    const res = await post('/ontology', 'application/rdf+xml', body);
    expect(res.status).to.equal(413);
    expect(await res.text()).to.match(/^413 LimitExceeded: the nesting depth of the RDF body is \d+, more than the limit of 64 \(MAX_NESTING\)/);
  });

  it('CML declaring a short entity the ordinary way is not refused', async () => {
    const res = await post('/dataset', 'chemical/x-cml', cmlXml('<!ENTITY n "methanol">', '&n;'), 'text/uri-list');
    expect(res.status, await res.clone().text()).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
    expect((await res.text()).trim()).to.match(new RegExp(`^${app.url}/dataset/`));
  });
});

describe('the published ontologies written with namespace entities (as Protégé writes OWL) still load', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  const NAMESPACES: Record<string, string> = {
    owl: 'http://www.w3.org/2002/07/owl#',
    xsd: 'http://www.w3.org/2001/XMLSchema#',
    rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
    rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
    ot: 'http://www.opentox.org/api/1.1#',
    ota: 'http://www.opentox.org/algorithmTypes.owl#',
  };

  /** The file with a DOCTYPE of namespace entities, every rdf:about/resource/datatype abbreviated with them. */
  function withEntities(text: string): { text: string; uses: number } {
    const dtd = Object.entries(NAMESPACES).map(([p, ns]) => `  <!ENTITY ${p} "${ns}" >`).join('\n');
    let uses = 0;
    const body = text.replace(/(rdf:(?:about|resource|datatype)=")([^"]*)"/g, (whole, attr: string, value: string) => {
      const hit = Object.entries(NAMESPACES).find(([, ns]) => value.startsWith(ns));
      if (!hit) return whole;
      uses++;
      return `${attr}&${hit[0]};${value.slice(hit[1].length)}"`;
    });
    return { text: body.replace(/^(<\?xml[^>]*>\s*)?/, (decl) => `${decl || ''}<!DOCTYPE rdf:RDF [\n${dtd}\n]>\n`), uses };
  }

  for (const file of ['opentox.owl', 'AlgorithmTypes.owl']) {
    it(`${file}: loads with the same triples as the file without entities`, async () => {
      const original = readFileSync(`${REFERENCE}/${file}`, 'utf8');
      const { text, uses } = withEntities(original);
      expect(uses, 'the rewrite uses entities').to.be.at.least(10);
      const load = async (body: string): Promise<string> => {
        const res = await fetch(app.url + '/ontology', { method: 'POST', body, headers: { 'Content-Type': 'application/rdf+xml', Accept: 'text/uri-list' } });
        const loaded = (await res.text()).trim();
        expect(res.status, loaded).to.equal(200);
        return loaded;
      };
      // The same graph (blank nodes included) as the file without entities gives, both read
      // back from the store, so that a store's own normalisation of literals cancels out.
      const plain = await load(original);
      const expected = await canonical(await app.deps.store.graph(plain));
      const uri = await load(text);
      expect(await canonical(await app.deps.store.graph(uri))).to.equal(expected);
      expect(expected).to.include('http://www.w3.org/2002/07/owl#');
      const nt = await (await fetch(uri, { headers: { Accept: 'application/n-triples' } })).text();
      expect(nt).to.include('<http://www.w3.org/2002/07/owl#');
      expect(nt).not.to.match(/&(owl|xsd|rdfs|ot|ota);/);
    });
  }
});
