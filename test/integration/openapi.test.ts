// The OpenAPI document over HTTP: valid OpenAPI 3.1 by swagger-parser, the same in JSON and
// YAML, every route of the app in it and every path in it answering (drift either way
// fails here), the algorithm parameters as the service checks them, and /docs served
// whole by the service under its policy.
import { expect } from 'chai';
import SwaggerParser from '@apidevtools/swagger-parser';
import YAML from 'yaml';
import { startApp, type TestApp } from '../helpers/app.ts';
import { createApp } from '../../src/app.ts';
import { routesOf } from '../../src/openapi/routeList.ts';
import { ALGORITHMS } from '../../src/algorithms/catalogue.ts';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { 'x-route'?: string; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, unknown> }>>;
  components: { securitySchemes: Record<string, Record<string, string>> };
};
type Schema = { required?: string[]; properties: Record<string, Record<string, unknown>> };

/** The answer of a path no route serves (src/http/errorMiddleware.ts). */
const NO_ROUTE = /no resource at|is not allowed here/;

describe('OpenAPI document', function () {
  this.timeout(120_000);
  let app: TestApp;
  let doc: Doc;
  before(async () => {
    app = await startApp();
    const res = await fetch(app.url + '/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    doc = await res.json() as Doc;
  });
  after(() => app.close());

  it('is valid OpenAPI 3.1 (swagger-parser validate, $refs resolved)', async () => {
    expect(doc.openapi).to.equal('3.1.0');
    const checked = await SwaggerParser.validate(structuredClone(doc) as never);
    expect(checked.info.title).to.equal('OpenTox REST service');
  });

  it('a broken document is refused by the same validator', async () => {
    const broken = structuredClone(doc);
    broken.paths['/dataset']!.get!.responses = { '200': { $ref: '#/components/responses/Nonesuch' } };
    let failed = false;
    await SwaggerParser.validate(broken as never).catch(() => { failed = true; });
    expect(failed).to.equal(true);
  });

  it('/openapi.yaml is the same document', async () => {
    const res = await fetch(app.url + '/openapi.yaml');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/yaml/);
    expect(YAML.parse(await res.text())).to.deep.equal(doc);
  });

  it('names the subjectid header and Bearer as security schemes', () => {
    expect(doc.components.securitySchemes.subjectid).to.include({ type: 'apiKey', in: 'header', name: 'subjectid' });
    expect(doc.components.securitySchemes.bearer).to.include({ type: 'http', scheme: 'bearer' });
  });

  const documented = () => Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, o]) => ({ method, path, route: o['x-route'] ?? path })));

  it('documents every route the app serves, and documents no route it lacks', () => {
    const routes = routesOf(createApp(app.deps)).map((r) => `${r.method} ${r.path}`).sort();
    const inDoc = [...new Set(documented().map((o) => `${o.method} ${o.route}`))].sort();
    expect(routes.length).to.be.greaterThan(60);
    expect(routes.filter((r) => !inDoc.includes(r)), 'routes missing from the document').to.deep.equal([]);
    expect(inDoc.filter((r) => !routes.includes(r)), 'documented routes the app lacks').to.deep.equal([]);
  });

  it('every documented operation answers (no "no resource" 404, no 405)', async () => {
    const fill = (path: string) => path.replace(/\{file\}/, 'init.js').replace(/\{(\w+)\}/g, '1');
    const answers = await Promise.all(documented().map(async ({ method, path }) => {
      const res = await fetch(app.url + fill(path), { method: method.toUpperCase(), headers: { Accept: 'text/plain' }, ...(method === 'get' || method === 'delete' ? {} : { body: '' }) });
      return { op: `${method} ${path}`, status: res.status, text: await res.text() };
    }));
    expect(answers.filter((a) => NO_ROUTE.test(a.text)).map((a) => `${a.op}: ${a.status} ${a.text.trim()}`)).to.deep.equal([]);
    // The test can fail: a path no route serves answers exactly what is looked for above.
    const missing = await fetch(app.url + '/algorithm/knn/1/extra', { method: 'POST', headers: { Accept: 'text/plain' } });
    expect(missing.status).to.equal(404);
    expect(await missing.text()).to.match(NO_ROUTE);
  });

  it('POST /algorithm/{name} documents each catalogue algorithm\'s parameters, and the service enforces what it says', async () => {
    for (const def of ALGORITHMS) {
      const form = doc.paths[`/algorithm/${def.id}`]!.post!.requestBody!.content['application/x-www-form-urlencoded']!.schema;
      expect(Object.keys(form.properties), def.id).to.include.members(['dataset_uri', ...def.params.map((p) => p.name)]);
      expect(form.required!.includes('prediction_feature'), def.id).to.equal(def.supervised);
    }
    const knn = doc.paths['/algorithm/knn']!.post!.requestBody!.content['application/x-www-form-urlencoded']!.schema.properties;
    // As GET /algorithm/knn describes k: "an integer in [1,1000]", default 5.
    expect(knn.k).to.include({ type: 'integer', minimum: 1, maximum: 1000, default: 5 });
    const description = await (await fetch(app.url + '/algorithm/knn', { headers: { Accept: 'application/n-triples' } })).text();
    expect(description).to.contain('an integer in [1,1000]');
    const refused = await fetch(app.url + '/algorithm/knn', { method: 'POST', headers: { Accept: 'text/plain' }, body: new URLSearchParams({ dataset_uri: app.url + '/dataset/1', prediction_feature: app.url + '/feature/1', k: String(Number(knn.k!.maximum) + 1) }) });
    expect(refused.status).to.equal(400);
    expect(await refused.text()).to.contain('k=');
  });

  it('/docs renders it with swagger-ui served by the service, no inline script', async () => {
    const res = await fetch(app.url + '/docs');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).to.match(/script-src 'self'/).and.not.match(/unsafe-inline|unsafe-eval|https?:\/\/(?!127\.0\.0\.1)/);
    const html = await res.text();
    expect(html).to.not.match(/<script>|<script[^>]*>[^<]+<\/script>/);
    const files = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((f) => !f.startsWith('data:'));
    expect(files).to.include.members(['swagger-ui-bundle.js', 'init.js', 'swagger-ui.css'].map((f) => `${app.url}/docs/${f}`));
    for (const file of files) {
      const f = await fetch(file);
      expect(f.status, file).to.equal(200);
      expect(f.headers.get('content-type'), file).to.match(file.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      const body = await f.text();
      if (file.endsWith('bundle.js')) expect(body).to.contain('SwaggerUIBundle');
      if (file.endsWith('init.js')) expect(body).to.contain('openapi.json');
    }
    expect((await fetch(`${app.url}/docs/constructor`)).status).to.equal(404);
    // With a trailing slash the page is the same, its files named from the base.
    expect(await (await fetch(`${app.url}/docs/`)).text()).to.equal(html);
  });
});
