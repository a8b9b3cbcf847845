// Access control (SPEC §5) on a real resource: compounds record their creator (in their own
// graph) and only the creator changes or deletes them; the same calls with auth off all
// succeed.
import { expect } from 'chai';
import { startApp, tempDir, type TestApp } from '../helpers/app.ts';
import { addUsers, login } from '../helpers/auth.ts';

const SMILES = 'chemical/x-daylight-smiles';

for (const mode of ['on', 'off'] as const) {
  describe(`compounds with auth ${mode}`, () => {
    let app: TestApp;
    let compound: string;
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
      const res = await fetch(app.url + '/compound', { method: 'POST', headers: { 'Content-Type': SMILES, Accept: 'text/uri-list', ...as('alice') }, body: 'c1ccccc1O' });
      expect(res.status).to.equal(200);
      compound = (await res.text()).trim();
    });
    after(async () => { await app.close(); });

    const table: Array<[string, string, () => RequestInit, number, number]> = [
      ['nobody', 'POST /compound', () => ({ method: 'POST', headers: { 'Content-Type': SMILES }, body: 'CCO' }), 401, 200],
      ['nobody', 'GET', () => ({}), 200, 200],
      ['bob', 'PUT', () => ({ method: 'PUT', headers: { 'Content-Type': SMILES }, body: 'c1ccccc1N' }), 403, 200],
      ['bob', 'DELETE', () => ({ method: 'DELETE' }), 403, 200],
    ];
    for (const [who, what, init, on, off] of table) {
      it(`${what} as ${who} answers ${mode === 'on' ? on : off}`, async () => {
        const request = init();
        const url = what === 'POST /compound' ? app.url + '/compound' : compound;
        const res = await fetch(url, { ...request, headers: { Accept: 'text/plain', ...(request.headers as Record<string, string>), ...as(who) } });
        expect(res.status, await res.clone().text()).to.equal(mode === 'on' ? on : off);
      });
    }

    if (mode === 'on') it('the creator deletes it', async () => {
      const res = await fetch(compound, { method: 'DELETE', headers: as('alice') });
      expect(res.status).to.equal(200);
      expect((await fetch(compound)).status).to.equal(404);
    });
  });
}
