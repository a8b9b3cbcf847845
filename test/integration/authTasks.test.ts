// Access control (SPEC §5.2) with the real task engine and SPARQL endpoint: tasks and their
// results belong to their creator; jobs run with the creator's name and token; /task lists and
// /sparql answer only what the caller may read. The same calls with auth off see everything.
import { expect } from 'chai';
import { startApp, tempDir, type TestApp } from '../helpers/app.ts';
import { addUsers, login } from '../helpers/auth.ts';
import { uriList, waitForStatus } from '../helpers/tasks.ts';
import { ownerOf } from '../../src/auth/owners.ts';

const TASKS_QUERY = 'PREFIX ot: <http://www.opentox.org/api/1.1#> SELECT ?t WHERE { ?t a ot:Task }';
const OWNERS_QUERY = 'SELECT ?s WHERE { ?s <http://www.opentox.org/api/1.1#owner> ?o }';

for (const mode of ['on', 'off'] as const) {
  describe(`tasks and SPARQL with auth ${mode}`, () => {
    let app: TestApp;
    let task: string;
    let result: string;
    const tokens: Record<string, string> = {};
    const as = (who: string): Record<string, string> => (tokens[who] ? { subjectid: tokens[who] } : {});

    before(async () => {
      const dir = tempDir();
      await addUsers(dir);
      app = await startApp({ authMode: mode === 'on' ? 'local' : 'off', loginRateLimit: 0, workers: 1 }, dir);
      if (mode === 'on') {
        tokens.alice = await login(app.url, 'alice');
        tokens.bob = await login(app.url, 'bob');
      }
      // The job names its result after the rights it runs with.
      app.deps.tasks.define<null>({
        kind: 'auth-test-whoami',
        idempotent: true,
        run: async (_p, ctx) => `${app.url}/dataset/${ctx.owner ?? 'nobody'}-${ctx.subjectid !== undefined && ctx.subjectid === tokens.alice ? 'token' : 'none'}`,
      });
      const info = await app.deps.tasks.submit('auth-test-whoami', null, {
        title: 'whoami', creator: `${app.url}/algorithm/test`, owner: mode === 'on' ? 'alice' : undefined, subjectid: tokens.alice,
      });
      task = info.uri;
      result = (await waitForStatus(app.deps.tasks, task, ['Completed'])).resultUris[0]!;
    });
    after(async () => { await app.close(); });

    it('the job ran with its creator\'s name and token; task and result are the creator\'s', async () => {
      if (mode === 'on') {
        expect(result).to.equal(`${app.url}/dataset/alice-token`);
        expect(await ownerOf(app.deps, task)).to.equal('alice');
        expect(await ownerOf(app.deps, result)).to.equal('alice');
      } else {
        expect(result).to.equal(`${app.url}/dataset/nobody-none`);
        expect(await ownerOf(app.deps, task)).to.equal(undefined);
      }
    });

    const access: Array<[string, number, number]> = [['nobody', 401, 200], ['bob', 403, 200], ['alice', 200, 200]];
    for (const [who, on, off] of access) {
      it(`GET the task as ${who} answers ${mode === 'on' ? on : off}`, async () => {
        const res = await fetch(task, { headers: { Accept: 'text/uri-list', ...as(who) } });
        expect(res.status).to.equal(mode === 'on' ? on : off);
        if (res.status === 200) expect(uriList(await res.text())).to.deep.equal([result]);
      });
    }

    const lists: Array<[string, number | boolean, number | boolean]> = [['nobody', 401, true], ['bob', false, true], ['alice', true, true]];
    for (const [who, on, off] of lists) {
      const expected = mode === 'on' ? on : off;
      it(`GET /task as ${who} ${typeof expected === 'number' ? `answers ${expected}` : expected ? 'lists the task' : 'does not list the task'}`, async () => {
        const res = await fetch(app.url + '/task', { headers: { Accept: 'text/uri-list', ...as(who) } });
        if (typeof expected === 'number') {
          expect(res.status).to.equal(expected);
          return;
        }
        expect(res.status).to.equal(200);
        expect(uriList(await res.text()).includes(task)).to.equal(expected);
      });
    }

    const sparql: Array<[string, boolean, boolean]> = [['nobody', false, true], ['bob', false, true], ['alice', true, true]];
    for (const [who, on, off] of sparql) {
      const sees = mode === 'on' ? on : off;
      it(`SPARQL as ${who} ${sees ? 'sees' : 'does not see'} the task, and never the owners`, async () => {
        const ask = async (query: string) => {
          const res = await fetch(`${app.url}/sparql?query=${encodeURIComponent(query)}`, { headers: { Accept: 'text/csv', ...as(who) } });
          expect(res.status).to.equal(200);
          return res.text();
        };
        expect((await ask(TASKS_QUERY)).includes(task)).to.equal(sees);
        expect((await ask(OWNERS_QUERY)).trim()).to.equal('s');
      });
    }
  });
}
