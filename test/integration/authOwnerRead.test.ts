// AUTH_READ=owner (SPEC §5): Alice's dataset, its features and her model are hers to read
// and to grant; Bob sees none of them (reads, lists, the HTML list, /sparql, applying an
// algorithm to them) until she grants him or his group, and again none after she revokes.
import { expect } from 'chai';
import { startApp, tempDir, type TestApp } from '../helpers/app.ts';
import { addUsers, form, login } from '../helpers/auth.ts';
import { waitForStatus } from '../helpers/tasks.ts';
import { UserFile } from '../../src/auth/users.ts';
import { forgetOwner, ownerOf } from '../../src/auth/owners.ts';

const CODED = 'SMILES,Activity\n' + ['CCO,0', 'CCCO,0', 'CCCCO,0', 'CC(C)O,0', 'CCN,1', 'CCCN,1', 'CCCCN,1', 'CC(C)N,1'].join('\n') + '\n';
const CAROL = 'carol-secret-333';

type Who = 'alice' | 'bob' | 'carol' | 'nobody';

describe('AUTH_READ=owner in local mode', function () {
  this.timeout(120_000);
  let app: TestApp;
  const tokens: Partial<Record<Who, string>> = {};
  let dataset: string;
  let feature: string;
  let compound: string;
  let model: string;

  const get = (url: string, who: Who, accept = 'text/uri-list') => fetch(url, { headers: { Accept: accept, ...(tokens[who] ? { subjectid: tokens[who] } : {}) } });
  const post = (url: string, who: Who, fields: Record<string, string>, accept = 'text/uri-list') => {
    const init = form({ ...fields, ...(tokens[who] ? { subjectid: tokens[who] } : {}) });
    return fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), Accept: accept } });
  };
  const lines = async (res: Response) => (await res.text()).split(/\r?\n/).filter(Boolean);
  const graphs = async (who: Who): Promise<string[]> => {
    const res = await get(`${app.url}/sparql?query=${encodeURIComponent('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }')}`, who, 'application/sparql-results+json');
    expect(res.status).to.equal(200);
    return ((await res.json()) as { results: { bindings: Array<{ g: { value: string } }> } }).results.bindings.map((b) => b.g.value);
  };
  const grant = (who: Who, resource: string, grantee: string) => post(`${app.url}/auth/grants`, who, { resource, grantee });
  const revoke = (who: Who, uri: string) => fetch(uri, { method: 'DELETE', headers: { subjectid: tokens[who]! } });

  before(async () => {
    const dir = tempDir();
    await addUsers(dir);
    const users = new UserFile(dir);
    await users.add('carol', CAROL);
    users.setGroup('carol', 'chem', true);
    app = await startApp({ authMode: 'local', authRead: 'owner', loginRateLimit: 0 }, dir);
    tokens.alice = await login(app.url, 'alice');
    tokens.bob = await login(app.url, 'bob');
    const res = await fetch(app.url + '/auth/authenticate', form({ username: 'carol', password: CAROL }));
    tokens.carol = /^token\.id=(.+)$/m.exec(await res.text())![1]!;

    const up = await fetch(`${app.url}/dataset?nominal=Activity`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list', subjectid: tokens.alice }, body: CODED });
    expect(up.status).to.equal(200);
    dataset = (await up.text()).trim();
    feature = (await lines(await get(`${dataset}/features`, 'alice')))[0]!;
    compound = (await lines(await get(`${dataset}/compounds`, 'alice')))[0]!;
    const built = await post(`${app.url}/algorithm/knn`, 'alice', { dataset_uri: dataset, prediction_feature: feature, k: '1' });
    expect(built.status, 'building the model').to.equal(202);
    model = (await waitForStatus(app.deps.tasks, (await built.text()).trim(), ['Completed'], 60_000)).resultUris[0]!;
  });
  after(async () => { await app.close(); });

  it('records Alice as owner of her dataset and model', async () => {
    expect(await ownerOf(app.deps, dataset)).to.equal('alice');
    expect(await ownerOf(app.deps, model)).to.equal('alice');
    expect(feature).to.match(/\/feature\/\d+$/);
  });

  const privateReads = (): Array<[string, () => string]> => [
    ['the dataset', () => dataset],
    ['an entry of the dataset', () => `${dataset}/entry/1`],
    ['the dataset\'s features', () => `${dataset}/features`],
    ['a feature the upload minted', () => feature],
    ['the model', () => model],
  ];
  for (const [what, url] of privateReads()) {
    it(`GET ${what}: 200 for Alice, 403 for Bob, 401 without a token`, async () => {
      expect((await get(url(), 'alice')).status).to.equal(200);
      const bob = await get(url(), 'bob', 'text/plain');
      expect(bob.status).to.equal(403);
      expect(bob.headers.get('content-type')).to.match(/^text\/plain/);
      expect(await bob.text()).to.match(/^403 Forbidden: .* belongs to another user/);
      expect((await get(url(), 'nobody')).status).to.equal(401);
    });
  }

  it('lists show Bob none of Alice\'s resources, Alice all of hers', async () => {
    for (const [list, item] of [['/dataset', dataset], ['/model', model], ['/feature', feature]] as const) {
      const bob = await get(app.url + list, 'bob');
      expect(bob.status).to.equal(200);
      expect(await lines(bob), `${list} for Bob`).not.to.include(item);
      expect(await lines(await get(app.url + list, 'alice')), `${list} for Alice`).to.include(item);
    }
  });

  it('the HTML list page shows Bob none of Alice\'s datasets', async () => {
    const bob = await get(app.url + '/dataset', 'bob', 'text/html');
    expect(bob.status).to.equal(200);
    expect(bob.headers.get('content-type')).to.match(/^text\/html/);
    expect(await bob.text()).not.to.contain(dataset);
    expect(await (await get(app.url + '/dataset', 'alice', 'text/html')).text()).to.contain(dataset);
  });

  it('SPARQL over every graph shows Bob none of Alice\'s graphs', async () => {
    const bob = await graphs('bob');
    expect(bob).not.to.include.members([dataset]);
    expect(bob).not.to.include(model);
    expect(bob).not.to.include(feature);
    expect(bob).not.to.include(`${app.url}/auth/owners`);
    expect(await graphs('alice')).to.include.members([dataset, model, feature]);
  });

  it('a cross-validation, and the per-fold models it made (owned by nobody), stay Alice\'s', async () => {
    const started = await post(`${app.url}/validation/crossvalidation`, 'alice', { algorithm_uri: `${app.url}/algorithm/knn`, dataset_uri: dataset, prediction_feature: feature, num_folds: '2', k: '1' });
    expect(started.status).to.equal(202);
    const validation = (await waitForStatus(app.deps.tasks, (await started.text()).trim(), ['Completed'], 60_000)).resultUris[0]!;
    expect(await ownerOf(app.deps, validation)).to.equal('alice');
    const folds = (await lines(await get(app.url + '/model', 'alice'))).filter((m) => m !== model);
    expect(folds, 'the fold models').to.have.length.of.at.least(2);
    expect(await ownerOf(app.deps, folds[0]!)).to.equal(undefined);
    expect((await get(validation, 'bob')).status).to.equal(403);
    expect((await get(folds[0]!, 'bob')).status).to.equal(403);
    expect((await get(folds[0]!, 'alice')).status).to.equal(200);
    expect(await lines(await get(app.url + '/validation', 'bob'))).not.to.include(validation);
    expect(await lines(await get(app.url + '/validation', 'alice'))).to.include(validation);
    const bobsModels = await lines(await get(app.url + '/model', 'bob'));
    for (const m of folds) expect(bobsModels).not.to.include(m);
    expect(await graphs('bob')).not.to.include.any.members([validation, ...folds]);
  });

  it('compounds (shared chemistry) and built-in algorithms are read by every user', async () => {
    expect((await get(compound, 'bob')).status).to.equal(200);
    expect((await get(`${app.url}/algorithm/knn`, 'bob')).status).to.equal(200);
    expect(await graphs('bob')).to.include(compound);
  });

  it('Bob can neither apply an algorithm to Alice\'s dataset nor use her model: 403 before any task', async () => {
    const tasksBefore = await lines(await get(app.url + '/task', 'bob'));
    const apply = await post(`${app.url}/algorithm/knn`, 'bob', { dataset_uri: dataset, prediction_feature: feature, k: '1' }, 'text/plain');
    expect(apply.status).to.equal(403);
    expect(await apply.text()).to.contain(dataset);
    // feature_uris[] inside a dataset_uri is the same dataset.
    const restricted = await post(`${app.url}/algorithm/knn`, 'bob', { dataset_uri: `${dataset}?feature_uris[]=${encodeURIComponent(feature)}`, prediction_feature: feature, k: '1' });
    expect(restricted.status).to.equal(403);
    expect((await post(model, 'bob', { dataset_uri: dataset })).status).to.equal(403);
    // Several URIs in one value (validation_uris) are each checked.
    const compare = await get(`${app.url}/validation/report/algorithm_comparison?validation_uris=${encodeURIComponent(`${compound},${model}`)}`, 'bob', 'text/plain');
    expect(compare.status).to.equal(403);
    expect(await compare.text()).to.contain(model);
    expect(await lines(await get(app.url + '/task', 'bob'))).to.deep.equal(tasksBefore);
  });

  it('only the owner grants: Bob cannot grant himself Alice\'s dataset', async () => {
    const res = await grant('bob', dataset, 'bob');
    expect(res.status).to.equal(403);
    expect((await grant('alice', `${app.url}/compound/1`, 'bob')).status).to.equal(400);
    expect((await grant('alice', dataset, 'not a name')).status).to.equal(400);
    expect((await post(`${app.url}/auth/grants`, 'nobody', { resource: dataset, grantee: 'bob' })).status).to.equal(401);
  });

  it('after Alice grants Bob the dataset he reads it, its features and finds it listed; after she revokes, not again', async () => {
    const res = await grant('alice', dataset, 'bob');
    expect(res.status).to.equal(201);
    const uri = res.headers.get('location')!;
    expect(uri).to.match(new RegExp(`^${app.url}/auth/grants/[0-9a-f-]{36}$`));
    expect((await res.text()).trim()).to.equal(uri);
    expect((await grant('alice', dataset, 'bob')).status, 'the same grant again').to.equal(200);

    expect((await get(dataset, 'bob')).status).to.equal(200);
    expect((await get(feature, 'bob')).status).to.equal(200);
    expect(await lines(await get(app.url + '/dataset', 'bob'))).to.include(dataset);
    expect(await graphs('bob')).to.include.members([dataset, feature]);
    expect(await graphs('bob')).not.to.include(model);
    expect((await get(model, 'bob')).status, 'the model is not granted').to.equal(403);
    expect(await lines(await get(`${app.url}/auth/grants`, 'bob'))).to.deep.equal([uri]);
    expect(await lines(await get(`${app.url}/auth/grants`, 'alice'))).to.deep.equal([uri]);
    const one = await get(uri, 'bob', 'application/n-triples');
    expect(one.status).to.equal(200);
    expect(await one.text()).to.contain(`<${dataset}>`).and.contain('"bob"');
    expect((await get(uri, 'carol')).status, 'a grant is seen only by its grantor and grantee').to.equal(404);

    expect((await revoke('bob', uri)).status, 'the grantee cannot revoke').to.equal(403);
    expect((await revoke('alice', uri)).status).to.equal(200);
    expect((await get(dataset, 'bob')).status).to.equal(403);
    expect(await lines(await get(app.url + '/dataset', 'bob'))).not.to.include(dataset);
    expect(await graphs('bob')).not.to.include(dataset);
    expect((await revoke('alice', uri)).status).to.equal(404);
  });

  it('a grant to group:chem lets Carol, in that group, read the model, and not Bob', async () => {
    const res = await grant('alice', model, 'group:chem');
    expect(res.status).to.equal(201);
    expect((await get(model, 'carol')).status).to.equal(200);
    expect(await lines(await get(app.url + '/model', 'carol'))).to.include(model);
    expect((await get(model, 'bob')).status).to.equal(403);
    expect((await get(dataset, 'carol')).status).to.equal(403);
    await revoke('alice', res.headers.get('location')!);
    expect((await get(model, 'carol')).status).to.equal(403);
  });

  it('a dataset nobody owns (made while auth was off) is read by every user', async () => {
    const up = await fetch(`${app.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list', subjectid: tokens.alice! }, body: CODED });
    const open = (await up.text()).trim();
    expect((await get(open, 'bob')).status).to.equal(403);
    await forgetOwner(app.deps, open);
    expect((await get(open, 'bob')).status).to.equal(200);
    expect(await lines(await get(app.url + '/dataset', 'bob'))).to.include(open);
  });

  it('paging counts only what the caller may read', async () => {
    const bob = await lines(await get(`${app.url}/dataset?page=0&pagesize=1`, 'bob'));
    expect(bob).to.have.length(1);
    expect(bob).not.to.include(dataset);
    const res = await get(`${app.url}/dataset?page=1&pagesize=1`, 'bob');
    expect(await lines(res)).to.deep.equal([]);
    expect(res.headers.get('link')).not.to.contain('rel="next"');
  });
});

describe('AUTH_READ=public with local auth keeps every resource readable', () => {
  let app: TestApp;
  before(async () => {
    const dir = tempDir();
    await addUsers(dir);
    app = await startApp({ authMode: 'local', loginRateLimit: 0 }, dir);
  });
  after(async () => { await app.close(); });

  it('Bob and an anonymous caller read and list Alice\'s dataset', async () => {
    const alice = await login(app.url, 'alice');
    const bob = await login(app.url, 'bob');
    const up = await fetch(`${app.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list', subjectid: alice }, body: CODED });
    const dataset = (await up.text()).trim();
    expect((await fetch(dataset, { headers: { subjectid: bob, Accept: 'text/uri-list' } })).status).to.equal(200);
    expect((await fetch(dataset, { headers: { Accept: 'text/uri-list' } })).status).to.equal(200);
    expect(await (await fetch(`${app.url}/dataset`, { headers: { Accept: 'text/uri-list' } })).text()).to.contain(dataset);
  });
});
