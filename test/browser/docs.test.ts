// /docs in a real browser: swagger-ui loads from the service under the page's policy,
// renders every tag of the document, and a GET tried from it answers; no console errors
// (a script or style the policy refused would be one).
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { CHROMIUM, startBrowser, type TestBrowser } from '../helpers/browser.ts';

describe('/docs in chromium', function () {
  this.timeout(120_000);
  let app: TestApp;
  let browser: TestBrowser;
  before(async function () {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (CI does, in .ci/run)`);
    app = await startApp();
    browser = await startBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it('renders the document with its operations and runs one', async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const failed: string[] = [];
    page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
    await page.goto(app.url + '/docs');
    await page.locator('.opblock-tag-section').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('.info .title').innerText()).to.contain('OpenTox REST service');
    const tags = await page.locator('.opblock-tag-section h3').allInnerTexts();
    expect(tags.map((t) => t.trim().split(/\s/)[0])).to.include.members(['dataset', 'algorithm', 'compound', 'task']);
    // Open GET / and try it out: the answer comes from the service itself.
    const root = page.locator('#operations-service-get');
    await root.locator('.opblock-summary').click();
    await root.locator('button.try-out__btn').click();
    await root.locator('button.execute').click();
    const status = root.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    expect(await status.innerText()).to.contain('200');
    expect(requests.filter((u) => !u.startsWith(app.url) && !u.startsWith('data:'))).to.deep.equal([]);
    expect(failed).to.deep.equal([]);
    expect(browser.errors, 'console errors').to.deep.equal([]);
  });
});
