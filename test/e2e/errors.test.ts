// Error behaviour as a user meets it, across resources (SPEC §7.2): every error is a report
// with the right status, readable as plain text; an unservable Accept gets the default format.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';

interface Case { what: string; method?: string; path: string; type?: string; body?: string; status: number; code: string }

const CASES: Case[] = [
  { what: 'unknown route', path: '/nothing/here', status: 404, code: 'NotFound' },
  { what: 'unknown compound', path: '/compound/999999', status: 404, code: 'NotFound' },
  { what: 'unknown dataset', path: '/dataset/999999', status: 404, code: 'NotFound' },
  { what: 'unknown feature', path: '/feature/999999', status: 404, code: 'NotFound' },
  { what: 'malformed task id', path: '/task/xyz', status: 400, code: 'InvalidTaskId' },
  { what: 'PUT on the task list', method: 'PUT', path: '/task', status: 405, code: 'MethodNotAllowed' },
  { what: 'DELETE on /sparql', method: 'DELETE', path: '/sparql', status: 405, code: 'MethodNotAllowed' },
  { what: 'PATCH on /compound', method: 'PATCH', path: '/compound', status: 405, code: 'MethodNotAllowed' },
  { what: 'bad paging', path: '/dataset?page=x', status: 400, code: 'InvalidParameter' },
  { what: 'bad SMILES', method: 'POST', path: '/compound', type: 'chemical/x-daylight-smiles', body: 'C1CC', status: 400, code: 'InvalidStructure' },
  { what: 'compound without Content-Type', method: 'POST', path: '/compound', body: 'CCO', status: 400, code: 'UnsupportedFormat' },
  { what: 'bad Turtle feature', method: 'POST', path: '/feature', type: 'text/turtle', body: 'garbage <', status: 400, code: 'RDFSyntaxError' },
  { what: 'truncated RDF/XML dataset', method: 'POST', path: '/dataset', type: 'application/rdf+xml', body: '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">', status: 400, code: 'RDFSyntaxError' },
  { what: 'bad JSON-LD feature', method: 'POST', path: '/feature', type: 'application/ld+json', body: '{bad', status: 400, code: 'RDFSyntaxError' },
  { what: 'unsupported dataset type', method: 'POST', path: '/dataset', type: 'application/x-foo', body: 'x', status: 400, code: 'UnsupportedMediaType' },
  { what: 'broken multipart', method: 'POST', path: '/dataset', type: 'multipart/form-data; boundary=XX', body: 'garbage', status: 400, code: 'BadRequest' },
  { what: 'empty CSV', method: 'POST', path: '/dataset', type: 'text/csv', body: '', status: 400, code: 'NoStructureColumn' },
  { what: 'SPARQL syntax', path: '/sparql?query=SELEC%20x', status: 400, code: 'SparqlSyntaxError' },
  { what: 'SPARQL update', method: 'POST', path: '/sparql', type: 'application/sparql-update', body: 'CLEAR ALL', status: 403, code: 'SparqlUpdateForbidden' },
  { what: 'bad SMARTS', path: '/compound?smarts=%5BN', status: 400, code: 'InvalidSmarts' },
  { what: 'similarity threshold', path: '/compound?similarity=CC&threshold=2', status: 400, code: 'InvalidParameter' },
];

describe('e2e: error reports across resources', function () {
  this.timeout(30_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  const send = (c: Case, accept: string) => fetch(app.url + c.path, {
    method: c.method ?? 'GET', body: c.body, headers: { Accept: accept, ...(c.type ? { 'Content-Type': c.type } : {}) },
  });

  for (const c of CASES) {
    it(`${c.what}: ${c.status} ${c.code}, as text and as the default RDF/XML for an unservable Accept`, async () => {
      const text = await send(c, 'text/plain');
      const body = await text.text();
      expect(text.status, body).to.equal(c.status);
      expect(text.headers.get('content-type')).to.match(/^text\/plain\b/);
      expect(body).to.match(new RegExp(`^${c.status} ${c.code}: \\S`));
      expect(body).to.include(`actor: ${app.url}/`);
      if (c.status === 405) expect(text.headers.get('allow')).to.match(/GET/);

      const xml = await send(c, 'image/png');
      expect(xml.status).to.equal(c.status);
      expect(xml.headers.get('content-type')).to.match(/^application\/rdf\+xml\b/);
      expect(await xml.text()).to.match(new RegExp(`<ot:ErrorReport[\\s\\S]*errors\\.owl#${c.code}"`));
    });
  }
});
