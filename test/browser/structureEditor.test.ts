// The structure editor of the search and predict pages in Debian's chromium: openchemlib's
// editor served by the service (no other host), under the pages' policy with no console
// error; a molecule set through the editor's API fills the SMILES field, and the search or
// prediction runs on it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';
import { sharedData } from '../helpers/data.ts';
import { CHROMIUM, startBrowser, type TestBrowser } from '../helpers/browser.ts';

/** RDKit's canonical SMILES of `smiles` (Debian's python3-rdkit): an independent judge. */
function rdkitCanonical(smiles: string): string {
  const run = spawnSync('/usr/bin/python3', ['-c', 'import sys; from rdkit import Chem; print(Chem.MolToSmiles(Chem.MolFromSmiles(sys.argv[1])))', smiles], { encoding: 'utf8' });
  expect(run.status, run.stderr).to.equal(0);
  return run.stdout.trim();
}

/** Sets `smiles` through the editor bound to input `id`, as a drawing would, and answers the field's value. */
async function draw(page: Page, id: string, smiles: string): Promise<string> {
  await page.waitForFunction((i) => Boolean((window as unknown as { opentoxEditors?: Record<string, unknown> }).opentoxEditors?.[i]), id);
  await page.evaluate(([i, s]) => {
    type Editors = Record<string, { editor: { setMolecule: (m: unknown) => void; moleculeChanged: () => void }; Molecule: { fromSmiles: (s: string) => unknown } }>;
    const { editor, Molecule } = (window as unknown as { opentoxEditors: Editors }).opentoxEditors[i!]!;
    (document.getElementById(i!) as HTMLInputElement).value = '';
    editor.setMolecule(Molecule.fromSmiles(s!));
    editor.moleculeChanged();
  }, [id, smiles]);
  // The editor reports the change; its listener writes the field.
  await page.waitForFunction((i) => (document.getElementById(i) as HTMLInputElement).value !== '', id, { timeout: 10_000 });
  return page.inputValue(`#${id}`);
}

describe('structure editor in chromium', function () {
  this.timeout(300_000);
  let app: TestApp;
  let browser: TestBrowser;
  const requested: string[] = [];
  before(async function () {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (CI does, in .ci/run)`);
    app = await startApp();
    await uploadDataset(app, 'SMILES,logS\nCCO,1\nCCCO,2\nc1ccccc1O,3\n', 'text/csv');
    browser = await startBrowser();
    browser.context.on('request', (r) => requested.push(r.url()));
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });
  afterEach(() => {
    expect(browser.errors, 'console errors (a policy violation is one)').to.deep.equal([]);
    expect(requested.filter((u) => !u.startsWith(app.url) && !u.startsWith('data:')), 'requests to other hosts').to.deep.equal([]);
  });

  it('search: a drawn phenol fills the query and an exact search finds it', async () => {
    const page = await browser.newPage();
    await page.goto(app.url + '/compound');
    expect(await page.locator('#search .structure-editor').isVisible()).to.equal(true);
    const smiles = await draw(page, 'search-q', 'c1ccccc1O');
    // openchemlib writes phenol as Oc1ccccc1 (its canonical SMILES).
    expect(smiles).to.equal('Oc1ccccc1');
    await page.check('#search input[value=exact]');
    await page.click('#search button[type=submit]');
    await page.locator('table.hits').waitFor();
    expect(page.url()).to.contain('q=Oc1ccccc1');
    expect(await page.locator('table.hits tbody a').first().getAttribute('href')).to.equal(app.url + '/compound/3');
    // The query is drawn again on the results page.
    await page.waitForFunction(() => Boolean((window as unknown as { opentoxEditors?: Record<string, unknown> }).opentoxEditors?.['search-q']));
    const atoms = await page.evaluate(() => (window as unknown as { opentoxEditors: Record<string, { editor: { getMolecule: () => { getAllAtoms: () => number } } }> }).opentoxEditors['search-q']!.editor.getMolecule().getAllAtoms());
    expect(atoms).to.equal(7);
    await page.close();
  });

  it('predict: a drawn structure is predicted by the model', async () => {
    const hamster = (await uploadDataset(app, readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.mini.csv')), 'text/csv')).body;
    const target = (await lines(hamster + '/features'))[0]!;
    const res = await fetch(app.url + '/algorithm/knn', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: hamster, prediction_feature: target, k: '3' }) });
    const model = res.status === 202 ? (await followTask((await res.text()).trim())).body : (await res.text()).trim();
    const page = await browser.newPage();
    await page.goto(model);
    const smiles = await draw(page, 'predict-smiles-input', 'CC(=O)Nc1ccccc1');
    // The same molecule as RDKit reads it, however openchemlib writes it.
    expect(rdkitCanonical(smiles)).to.equal(rdkitCanonical('CC(=O)Nc1ccccc1'));
    await page.click('#predict-smiles button[type=submit]');
    const result = page.locator('#predict-job a.result-link');
    await result.waitFor({ timeout: 120_000 });
    const rows = await lines((await result.getAttribute('href'))!, 'text/csv');
    expect(rows).to.have.length(2);
    await page.close();
  });

  it('serves the editor as files: JavaScript, cached, and nothing else under /static/', async () => {
    const ocl = await fetch(app.url + '/static/openchemlib.js');
    expect(ocl.status).to.equal(200);
    expect(ocl.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(ocl.headers.get('cache-control')).to.contain('max-age');
    expect(await ocl.text()).to.equal(readFileSync('node_modules/openchemlib/dist/openchemlib.js', 'utf8'));
    expect((await fetch(app.url + '/static/../package.json')).status).to.equal(404);
    expect((await fetch(app.url + '/static/nothing.js')).status).to.equal(404);
  });
});
