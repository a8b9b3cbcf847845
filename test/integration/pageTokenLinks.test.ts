// A page opened with a token in its query (?subjectid=) writes no link that carries it:
// sort, paging, format and search links, and the Link header, are built without it.
import { expect } from 'chai';
import { startApp, tempDir, type TestApp } from '../helpers/app.ts';
import { addUsers, login } from '../helpers/auth.ts';

for (const mode of ['off', 'on'] as const) {
  describe(`pages never write a token into a link (auth ${mode})`, function () {
    this.timeout(120_000);
    let app: TestApp;
    let token: string;
    let dataset: string;

    before(async () => {
      const dir = tempDir();
      if (mode === 'on') await addUsers(dir);
      app = await startApp({ authMode: mode === 'on' ? 'local' : 'off', loginRateLimit: 0, pageSize: 2 }, dir);
      token = mode === 'on' ? await login(app.url, 'alice') : 'XYZ-not-a-token';
      const rows = ['CCO', 'CCCO', 'CCCCO', 'c1ccccc1O', 'CC(=O)O'].map((s, i) => `${s},${i}`).join('\n');
      const res = await fetch(`${app.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list', subjectid: token }, body: `SMILES,logS\n${rows}\n` });
      expect(res.status).to.equal(200);
      dataset = (await res.text()).trim();
    });
    after(() => app?.close());

    it('in the HTML and in the Link header of every list and a dataset', async () => {
      const t = encodeURIComponent(token);
      const paths = [
        `/compound?subjectid=${t}`, `/compound?page=1&pagesize=1&subjectid=${t}`, `/dataset?subjectid=${t}&pagesize=1`,
        `/feature?pagesize=1&subjectid=${t}`, `/algorithm?pagesize=1&subjectid=${t}`, `/task?pagesize=1&subjectid=${t}`,
        `${new URL(dataset).pathname}?subjectid=${t}&pagesize=1&page=1`, `${new URL(dataset).pathname}?sort=0&order=desc&subjectid=${t}&token=${t}`,
        `/compound?search=CCO&subjectid=${t}`, `/compound?q=CCO&mode=substructure&subjectid=${t}&pagesize=1`,
      ];
      for (const path of paths) {
        for (const accept of ['text/html', 'text/uri-list']) {
          const res = await fetch(app.url + path, { headers: { Accept: accept } });
          const body = await res.text();
          expect(res.status, `${path} ${accept}: ${body.slice(0, 200)}`).to.equal(200);
          expect(body, `${path} ${accept}`).to.not.include(token);
          expect(body, `${path} ${accept}`).to.not.include(t);
          expect(res.headers.get('link') ?? '', `${path} Link`).to.not.include(t);
          if (accept === 'text/html') expect(body, path).to.match(/<a [^>]*href="[^"]*\?[^"]*"/);
        }
      }
      // The links still lead on: a next page is written, without the token.
      const page = await (await fetch(`${app.url}/dataset/${new URL(dataset).pathname.split('/').pop()}?subjectid=${t}&pagesize=1`, { headers: { Accept: 'text/html' } })).text();
      expect(page).to.match(/rel="next" href="[^"]*pagesize=1[^"]*"/);
    });
  });
}
