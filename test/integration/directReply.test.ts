// A job done within the request answers 200 as SPEC §4.3 "Creating a task" tables it:
// text/uri-list carries the result URI, RDF the completed task object.
import { expect } from 'chai';
import N3 from 'n3';
import { startApp, type TestApp } from '../helpers/app.ts';
import { lines, uploadDataset } from '../helpers/datasets.ts';
import { OT } from '../../src/rdf/vocab.ts';

const { namedNode } = N3.DataFactory;

/** The one ot:Task of a Turtle body: its URI, status and results. */
function taskOf(body: string): { uri: string; status?: string; results: string[] } {
  const store = new N3.Store(new N3.Parser({ format: 'text/turtle' }).parse(body));
  const tasks = store.getSubjects(namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'), OT.Task, null);
  expect(tasks, body).to.have.length(1);
  const s = tasks[0];
  return { uri: s!.value, status: store.getObjects(s!, OT.hasStatus, null)[0]?.value, results: store.getObjects(s!, OT.resultURI, null).map((o) => o.value) };
}

describe('direct 200 answers follow Accept (SPEC §4.3)', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  const csv = 'SMILES,a,b\nCCO,1,5\nCCCO,2,7\nCCCCO,3,6\n';

  it('a small upload with Accept text/uri-list answers the dataset URI', async () => {
    const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: csv });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
    expect((await res.text()).trim()).to.match(new RegExp(`^${app.url}/dataset/\\d+$`));
  });

  for (const accept of ['application/rdf+xml', 'text/turtle']) {
    it(`a small upload with Accept ${accept} answers the completed task object, which dereferences`, async () => {
      const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: accept }, body: csv });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.contain(accept);
      const body = await res.text();
      const uri = accept === 'text/turtle' ? taskOf(body).uri : /rdf:about="([^"]*\/task\/[^"]+)"/.exec(body)?.[1];
      expect(uri, body).to.match(new RegExp(`^${app.url}/task/`));
      const stored = await fetch(uri!, { headers: { Accept: 'text/turtle' } });
      expect(stored.status).to.equal(200);
      const t = taskOf(await stored.text());
      expect(t.status).to.equal('Completed');
      expect(t.results).to.have.length(1);
      expect(t.results[0]).to.match(new RegExp(`^${app.url}/dataset/\\d+$`));
      expect(await lines(t.results[0] + '/compounds')).to.have.length(3);
    });
  }

  it('feature selection answers its selected features as a completed task in RDF', async () => {
    const dataset = (await uploadDataset(app, csv, 'text/csv')).body;
    const features = await lines(dataset + '/features');
    const res = await fetch(`${app.url}/algorithm/preprocessing/featureselection/fs-variance`, {
      method: 'POST', headers: { Accept: 'text/turtle' }, body: new URLSearchParams({ dataset_uri: dataset, threshold: '0' }),
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.contain('text/turtle');
    const t = taskOf(await res.text());
    expect(t.status).to.equal('Completed');
    expect(t.results.sort()).to.deep.equal([...features].sort());
  });
});
