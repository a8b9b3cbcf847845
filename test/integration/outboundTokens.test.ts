// A caller's token goes only to the service's own origin and to TOKEN_ORIGINS (DESIGN
// "Outbound requests and trust"). Alice runs the host her dataset's compounds point at; Bob
// applying an algorithm to that dataset must not hand her his token. Nothing leaves 127.0.0.1.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startApp, tempDir, type TestApp } from '../helpers/app.ts';
import { addUsers, login } from '../helpers/auth.ts';
import { startRecorder, type Recorder } from '../helpers/recorder.ts';

/** Every file under `dir`, as text, for a search of what was written to disk. */
function filesUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, 'latin1'))
    .join('\n');
}

/** Polls a task as `token`'s holder until it leaves 202 (SPEC §4.3). */
async function follow(task: string, token: string): Promise<{ status: number; body: string }> {
  for (;;) {
    const res = await fetch(task, { headers: { Accept: 'text/uri-list', subjectid: token } });
    const body = (await res.text()).trim();
    if (res.status !== 202) return { status: res.status, body };
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('tokens go only where they belong (AUTH_MODE=local)', () => {
  let app: TestApp;
  let alices: Recorder;
  const tokens: Record<string, string> = {};
  before(async () => {
    // Alice's host answers SMILES for her compounds, and records whatever reaches it.
    alices = await startRecorder((req, res) => res.writeHead(200, { 'Content-Type': 'chemical/x-daylight-smiles' }).end(req.url.endsWith('/2') ? 'c1ccccc1O\n' : 'CCO\n'));
    const dir = tempDir();
    await addUsers(dir);
    app = await startApp({ authMode: 'local', loginRateLimit: 0, remoteOrigins: [alices.url] }, dir);
    tokens.alice = await login(app.url, 'alice');
    tokens.bob = await login(app.url, 'bob');
  });
  after(async () => {
    await app.close();
    await alices.close();
  });

  const apply = async (who: string, fields: Record<string, string>) => {
    const res = await fetch(app.url + '/algorithm/physchem', { method: 'POST', headers: { Accept: 'text/uri-list', subjectid: tokens[who]! }, body: new URLSearchParams(fields) });
    const text = (await res.text()).trim();
    expect(res.status, text).to.be.oneOf([200, 202]);
    return res.status === 202 ? follow(text, tokens[who]!) : { status: 200, body: text };
  };

  it("Bob's physchem run over Alice's dataset sends her host no token, in headers, URL or body", async () => {
    const csv = `compound,a\n${alices.url}/compound/1?subjectid=AQICalices-own-token,1\n${alices.url}/compound/2,2\n`;
    const up = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list', subjectid: tokens.alice! }, body: csv });
    expect(up.status).to.equal(200);
    const dataset = (await up.text()).trim();
    // The token Alice wrote into a compound URI is not kept either.
    const listed = await (await fetch(dataset, { headers: { Accept: 'text/uri-list', subjectid: tokens.bob! } })).text();
    expect(listed.trim().split(/\r?\n/)).to.deep.equal([`${alices.url}/compound/1`, `${alices.url}/compound/2`]);
    const done = await apply('bob', { dataset_uri: dataset });
    expect(done.status, done.body).to.equal(200);
    // Her host was asked for the structures (so the test can fail), and got no credential.
    expect(alices.seen.map((s) => s.url).sort()).to.deep.equal(['/compound/1', '/compound/2']);
    for (const s of alices.seen) expect(s.headers).not.to.have.any.keys('subjectid', 'authorization', 'cookie');
    expect(alices.text()).not.to.contain(tokens.bob);
    expect(alices.text()).not.to.contain(tokens.alice);
    expect(alices.text()).not.to.match(/subjectid|tokenid|AQIC/i);
  });

  it('a token inside a dataset_uri is removed before it is stored, echoed or fetched', async () => {
    const up = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list', subjectid: tokens.bob! }, body: 'SMILES,a\nCCO,1\nCCCO,2\n' });
    const dataset = (await up.text()).trim();
    const res = await fetch(app.url + '/algorithm/physchem', { method: 'POST', headers: { Accept: 'text/uri-list', subjectid: tokens.bob! }, body: new URLSearchParams({ dataset_uri: `${dataset}?subjectid=${tokens.bob}` }) });
    const task = (await res.text()).trim();
    expect(res.status).to.equal(202);
    expect((await follow(task, tokens.bob!)).status).to.equal(200);
    const answer = await (await fetch(task, { headers: { Accept: 'text/turtle', subjectid: tokens.bob! } })).text();
    expect(answer).to.contain(dataset);
    expect(answer).not.to.contain(tokens.bob);
    // The store never held it: no triple in any graph Bob may read (both modes) and, in the
    // embedded mode, no journal or snapshot byte; only the token file does.
    const query = `SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o FILTER(CONTAINS(STR(?o), "${tokens.bob}") || CONTAINS(STR(?s), "${tokens.bob}")) } }`;
    const found = await fetch(app.url + '/sparql', { method: 'POST', headers: { Accept: 'text/csv', subjectid: tokens.bob!, 'Content-Type': 'application/sparql-query' }, body: query });
    expect(found.status).to.equal(200);
    expect((await found.text()).trim().split(/\r?\n/)[1]).to.equal('0');
    const store = path.join(app.dataDir, 'store');
    if (existsSync(store)) expect(filesUnder(store)).not.to.contain(tokens.bob);
  });
});
