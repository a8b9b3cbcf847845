// The pages in a real browser: click through, upload with live progress, see a model's
// plot, search, and no console errors anywhere.
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';
import { sharedData } from '../helpers/data.ts';
import { CHROMIUM, startBrowser, type TestBrowser } from '../helpers/browser.ts';

const SCREENSHOTS = process.env.PAGES_SCREENSHOTS;

describe('pages in chromium', function () {
  this.timeout(300_000);
  let app: TestApp;
  let browser: TestBrowser;
  let dataset: string;
  before(async function () {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (CI does, in .ci/run)`);
    app = await startApp();
    dataset = (await uploadDataset(app, 'SMILES,logS,active\nCCO,1,yes\nCCCO,2,no\nc1ccccc1O,3,yes\n', 'text/csv')).body;
    browser = await startBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });
  afterEach(() => {
    expect(browser.errors, 'console errors').to.deep.equal([]);
  });

  it('clicks from the root to a dataset to a compound', async () => {
    const page = await browser.newPage();
    await page.goto(app.url + '/');
    await page.click(`main a[href="${app.url}/dataset"]`);
    await page.waitForURL(app.url + '/dataset');
    await page.click(`main a[href="${dataset}"]`);
    await page.waitForURL(dataset);
    expect(await page.locator('table.entries tbody tr').count()).to.equal(3);
    expect(await page.locator('.plots svg.plot').count()).to.equal(2);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/dataset.png`, fullPage: true });
    await page.click(`table.entries a[href="${app.url}/compound/3"]`);
    await page.waitForURL(app.url + '/compound/3');
    expect(await page.locator('h1').textContent()).to.equal('Compound 3 · C6H6O');
    expect(await page.locator('.compound svg').count()).to.equal(1);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/compound.png`, fullPage: true });
    await page.close();
  });

  it('uploads a file in the form, shows the task, and links the new dataset', async () => {
    const page = await browser.newPage();
    await page.goto(app.url + '/dataset');
    // Larger than the inline upload limit, so the service answers with a task (SPEC §4.3).
    await page.setInputFiles('#upload input[type=file]', sharedData('opentox-test', 'hamster_carcinogenicity.sdf'));
    await page.click('#upload button[type=submit]');
    const link = page.locator('#upload-job a.result-link');
    await link.waitFor({ timeout: 120_000 });
    const created = await link.getAttribute('href');
    expect(created).to.match(new RegExp(`^${app.url}/dataset/\\d+$`));
    expect(await page.locator('#upload-job .task-link').getAttribute('href')).to.match(/\/task\//);
    expect(await page.locator('#upload-job progress').getAttribute('value')).to.equal('100');
    expect(await lines(created!, 'text/csv')).to.have.length(86);
    await link.click();
    await page.waitForURL(created!);
    expect(await page.locator('table.entries tbody tr').count()).to.equal(20);
    await page.close();
  });

  it('a model page shows its plot and confusion matrix', async () => {
    const hamster = (await uploadDataset(app, readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.mini.csv')), 'text/csv')).body;
    const target = (await lines(hamster + '/features'))[0]!;
    const res = await fetch(app.url + '/algorithm/knn', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: hamster, prediction_feature: target, k: '3', folds: '2', seed: '9' }) });
    const model = res.status === 202 ? (await followTask((await res.text()).trim())).body : (await res.text()).trim();
    const page = await browser.newPage();
    await page.goto(model);
    const plot = page.locator('svg.plot');
    await plot.waitFor();
    expect(await plot.getAttribute('aria-label')).to.match(/^ROC curve, cross-validated AUC /);
    expect(await page.locator('table.confusion td').count()).to.equal(4);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/model.png`, fullPage: true });
    // Predict one typed structure: a compound is made, then the model's task is followed.
    await page.fill('#predict-smiles input[name=smiles]', 'CC(=O)Nc1ccccc1');
    await page.click('#predict-smiles button[type=submit]');
    const result = page.locator('#predict-job a.result-link');
    await result.waitFor({ timeout: 120_000 });
    expect(await lines((await result.getAttribute('href'))!, 'text/csv')).to.have.length(2);
    await page.close();
  });

  it('applies an algorithm from its form and follows the task page to the result', async () => {
    const page = await browser.newPage();
    await page.goto(app.url + '/algorithm/physchem');
    await page.fill('#apply input[name=dataset_uri]', dataset);
    await page.fill('#apply input[name=MW]', 'true');
    await page.click('#apply button[type=submit]');
    const result = page.locator('#apply-job a.result-link');
    await result.waitFor({ timeout: 120_000 });
    const described = (await result.getAttribute('href'))!;
    expect((await lines(described, 'text/csv'))[0]).to.match(/MW|molecular weight/i);
    // A task page opened while the job runs updates itself until the result link shows.
    const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'chemical/x-mdl-sdfile', Accept: 'text/uri-list' }, body: readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.sdf')) });
    const task = (await res.text()).trim();
    await page.goto(task);
    await page.locator('.job a.result-link').waitFor({ timeout: 120_000 });
    expect(await page.locator('.job .status').textContent()).to.match(/Completed/);
    await page.close();
  });

  it('searches by substructure from the form', async () => {
    const page = await browser.newPage();
    await page.goto(app.url + '/compound');
    await page.fill('#search input[name=q]', 'c1ccccc1');
    await page.check('#search input[value=substructure]');
    await page.click('#search button[type=submit]');
    await page.locator('table.hits').waitFor();
    expect(await page.locator('table.hits tbody a').first().getAttribute('href')).to.equal(app.url + '/compound/3');
    await page.close();
  });
});
