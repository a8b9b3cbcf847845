import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startApp, type TestApp } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';
import { ensureFeature } from '../../src/features/features.ts';

const NUMERIC = (title: string, units = 'mg/L') => `@prefix ot: <http://www.opentox.org/api/1.1#> .
@prefix dc: <http://purl.org/dc/elements/1.1/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
<http://x.example/f> a ot:Feature, ot:NumericFeature ; dc:title "${title}" ; ot:units "${units}" ;
  owl:sameAs <http://www.opentox.org/echaEndpoints.owl#LC50> .`;

describe('/feature', () => {
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  const post = (body: string, type = 'text/turtle') =>
    fetch(app.url + '/feature', { method: 'POST', headers: { 'Content-Type': type, Accept: 'text/uri-list' }, body });

  it('creates, reads, replaces and deletes a feature', async () => {
    const res = await post(NUMERIC('LC50'));
    expect(res.status).to.equal(200);
    const uri = (await res.text()).trim();
    expect(uri).to.match(new RegExp(`^${app.url}/feature/\\d+$`));

    const got = await fetch(uri, { headers: { Accept: 'application/n-triples' } });
    expect(got.status).to.equal(200);
    const nt = await got.text();
    expect(nt).to.contain('#NumericFeature>').and.contain('"mg/L"').and.contain('"LC50"');

    const put = await fetch(uri, { method: 'PUT', headers: { 'Content-Type': 'text/turtle' }, body: NUMERIC('LC50 corrected', 'mmol') });
    expect(put.status).to.equal(200);
    const after = await (await fetch(uri, { headers: { Accept: 'application/n-triples' } })).text();
    expect(after).to.contain('"LC50 corrected"').and.contain('"mmol"').and.not.contain('"mg/L"');

    expect((await fetch(uri, { method: 'DELETE' })).status).to.equal(200);
    expect((await fetch(uri)).status).to.equal(404);
  });

  it('reads the ambit feature (RDF/XML, blank node, sameAs as literal)', async () => {
    const res = await post(readFileSync(sharedData('ambit', 'feature.rdf'), 'utf8'), 'application/rdf+xml');
    expect(res.status).to.equal(200);
    const uri = (await res.text()).trim();
    const nt = await (await fetch(uri, { headers: { Accept: 'text/turtle' } })).text();
    expect(nt).to.contain('EC10').and.contain('mg/L').and.contain('StringFeature');
    const list = await fetch(app.url + '/feature?sameas=' + encodeURIComponent('http://www.opentox.org/echaEndpoints.owl#EC_DAPHNIATOX'), { headers: { Accept: 'text/uri-list' } });
    expect((await list.text()).trim()).to.equal(uri);
  });

  const bad: Array<[string, string, string, number, string]> = [
    ['RDF without a feature', '<http://a> <http://b> <http://c> .', 'application/n-triples', 400, 'NotAFeatureRepresentation'],
    ['broken Turtle', '<http://a> <http://b', 'text/turtle', 400, 'RDFSyntaxError'],
    ['not RDF', 'CCO', 'chemical/x-daylight-smiles', 400, 'UnsupportedMediaType'],
  ];
  for (const [what, body, type, status, code] of bad) {
    it(`refuses ${what} with ${status} ${code}`, async () => {
      const res = await post(body, type);
      expect(res.status).to.equal(status);
      expect(await res.text()).to.contain(code);
    });
  }

  it('reuses a feature its source makes again, and lists with paging', async () => {
    const spec = { title: 'logP', type: 'numeric' as const, source: app.url + '/algorithm/logp' };
    const a = await ensureFeature(app.deps, spec);
    const b = await ensureFeature(app.deps, spec);
    const c = await ensureFeature(app.deps, { ...spec, title: 'TPSA' });
    expect(b).to.equal(a);
    expect(c).to.not.equal(a);
    const page0 = await fetch(app.url + '/feature?pagesize=1&page=0', { headers: { Accept: 'text/uri-list' } });
    expect(page0.headers.get('link')).to.contain('page=1');
    expect((await page0.text()).trim().split('\n')).to.have.length(1);
    const all = (await (await fetch(app.url + '/feature', { headers: { Accept: 'text/uri-list' } })).text()).trim().split(/\r?\n/);
    expect(all).to.include(a).and.include(c);
    expect((await fetch(app.url + '/feature?pagesize=x')).status).to.equal(400);
  });
});
