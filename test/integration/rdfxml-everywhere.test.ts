// Every RDF/XML the service emits parses in an independent parser (rdfxml-streaming-parser),
// says the same as the N-Triples of the same resource, and survives the store.
// Walks the collections of GET / and the ontology graphs, errors included.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { byValue, canonical, parseRdfXmlStrict } from '../helpers/rdf.ts';
import { parseRdf } from '../../src/rdf/parse.ts';
import { COLLECTIONS } from '../../src/routes/root.ts';

describe('RDF/XML of every collection parses independently and round-trips through the store', () => {
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  const paths = ['/', ...COLLECTIONS.map((c) => c.path), '/ontology/opentox', '/ontology/algorithmTypes', '/ontology/errors', '/no/such/resource'];
  for (const path of paths) {
    it(`GET ${path}`, async () => {
      const xmlRes = await fetch(app.url + path, { headers: { Accept: 'application/rdf+xml' } });
      expect(xmlRes.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
      const xml = await parseRdfXmlStrict(await xmlRes.text(), app.url + path);
      const ntRes = await fetch(app.url + path, { headers: { Accept: 'application/n-triples' } });
      expect(ntRes.status).to.equal(xmlRes.status);
      const nt = await parseRdf(await ntRes.text(), 'ntriples', app.url + path);
      // Error reports are blank nodes: compare as graphs, not by labels.
      expect(await canonical(xml)).to.equal(await canonical(nt));
      const graph = `http://roundtrip.example/${encodeURIComponent(path)}`;
      await app.deps.store.replaceGraph(graph, xml);
      // The store keeps numbers by value (e.g. ot:statusCode "404"^^xsd:int as xsd:integer).
      expect(await canonical(byValue(await app.deps.store.graph(graph)))).to.equal(await canonical(byValue(xml)));
      await app.deps.store.dropGraph(graph);
    });
  }
});
