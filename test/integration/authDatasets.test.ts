// Access control (SPEC §5) on datasets: an upload is its uploader's; others may read it
// (AUTH_READ=public) but not change or delete it. The same calls with auth off all succeed.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startApp, tempDir, type TestApp } from '../helpers/app.ts';
import { addUsers, login } from '../helpers/auth.ts';
import { sharedData } from '../helpers/data.ts';
import { ownerOf } from '../../src/auth/owners.ts';

const CSV = readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.mini.csv'), 'utf8');

for (const mode of ['on', 'off'] as const) {
  describe(`datasets with auth ${mode}`, () => {
    let app: TestApp;
    let dataset: string;
    const tokens: Record<string, string> = {};
    const as = (who: string): Record<string, string> => (tokens[who] ? { subjectid: tokens[who] } : {});
    before(async () => {
      const dir = tempDir();
      await addUsers(dir);
      app = await startApp({ authMode: mode === 'on' ? 'local' : 'off', loginRateLimit: 0 }, dir);
      if (mode === 'on') {
        tokens.alice = await login(app.url, 'alice');
        tokens.bob = await login(app.url, 'bob');
      }
      const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list', ...as('alice') }, body: CSV });
      expect(res.status).to.equal(200);
      dataset = (await res.text()).trim();
    });
    after(async () => { await app.close(); });

    it(`the upload is ${mode === 'on' ? 'alice\'s' : 'nobody\'s'}`, async () => {
      expect(await ownerOf(app.deps, dataset)).to.equal(mode === 'on' ? 'alice' : undefined);
    });

    const table: Array<[string, string, () => RequestInit, number, number]> = [
      ['nobody', 'GET', () => ({ headers: { Accept: 'text/uri-list' } }), 200, 200],
      ['nobody', 'POST /dataset', () => ({ method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: CSV }), 401, 200],
      ['bob', 'PUT', () => ({ method: 'PUT', headers: { 'Content-Type': 'text/csv' }, body: CSV }), 403, 200],
      ['bob', 'DELETE', () => ({ method: 'DELETE' }), 403, 200],
    ];
    for (const [who, what, init, on, off] of table) {
      it(`${what} as ${who} answers ${mode === 'on' ? on : off}`, async () => {
        const request = init();
        const url = what === 'POST /dataset' ? app.url + '/dataset' : dataset;
        const res = await fetch(url, { ...request, headers: { Accept: 'text/plain', ...(request.headers as Record<string, string>), ...as(who) } });
        expect(res.status, await res.clone().text()).to.equal(mode === 'on' ? on : off);
      });
    }
  });
}
