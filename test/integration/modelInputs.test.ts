// A model names its inputs: ot:independentVariables lists every feature it reads, the
// descriptors and fingerprint bits it computes included, each with ot:hasSource the
// calculation, and own:inputs gives them in the order the model reads them.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, uploadDataset } from '../helpers/datasets.ts';
import { DESCRIPTORS } from '../../src/chem/descriptors.ts';
import { TOXICOPHORES } from '../../src/chem/toxicophores.ts';

async function apply(url: string, f: Record<string, string>): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams(f) });
  const text = (await res.text()).trim();
  return res.status === 202 ? followTask(text) : { status: res.status, body: text };
}
const nt = async (url: string) => (await fetch(url, { headers: { Accept: 'application/n-triples' } })).text();
const objects = (triples: string, s: string, p: string) => triples.split('\n').filter((l) => l.startsWith(`<${s}> <${p}> `)).map((l) => l.slice(l.indexOf(`<${p}> `) + p.length + 3, l.lastIndexOf(' .')).replace(/^<|>$/g, ''));

const OT = 'http://www.opentox.org/api/1.1#';
const CSV = 'SMILES,bp\nCCO,78.4\nCCCO,97.2\nCCCCO,117.7\nCC(C)O,82.5\nCCCCCO,138.5\nCCN,16.6\nCCCN,48.5\nCCCCN,77.3\n';

/** own:inputs of a model, read along its rdf:List. */
function inputList(triples: string, model: string, own: string): string[] {
  const out: string[] = [];
  let cell = objects(triples, model, `${own}inputs`)[0];
  while (cell && cell !== 'http://www.w3.org/1999/02/22-rdf-syntax-ns#nil') {
    out.push(objects(triples, cell, 'http://www.w3.org/1999/02/22-rdf-syntax-ns#first')[0]!);
    cell = objects(triples, cell, 'http://www.w3.org/1999/02/22-rdf-syntax-ns#rest')[0];
  }
  return out;
}

describe('a model names its inputs', function () {
  this.timeout(300_000);
  let app: TestApp;
  let dataset: string;
  let target: string;
  before(async () => {
    app = await startApp();
    dataset = (await uploadDataset(app, CSV, 'text/csv')).body;
    const line = (await nt(dataset)).split('\n').find((l) => l.includes('/title> "bp"') && l.includes('/feature/'))!;
    target = line.slice(1, line.indexOf('>'));
  });
  after(async () => { await app.close(); });

  it('a model on descriptors lists each descriptor it computes, the features /algorithm/physchem makes, in its order', async () => {
    const built = await apply(`${app.url}/algorithm/mlr`, { dataset_uri: dataset, prediction_feature: target, folds: '2' });
    expect(built.status, built.body).to.equal(200);
    const triples = await nt(built.body);
    const inputs = inputList(triples, built.body, `${app.url}/ontology/service#`);
    expect(inputs).to.have.length(DESCRIPTORS.length);
    expect([...objects(triples, built.body, `${OT}independentVariables`)].sort()).to.deep.equal([...inputs].sort());
    const titles: string[] = [];
    for (const f of inputs) {
      const own = await nt(f);
      expect(objects(own, f, `${OT}hasSource`), f).to.deep.equal([`${app.url}/algorithm/physchem`]);
      titles.push(JSON.parse(objects(own, f, 'http://purl.org/dc/elements/1.1/title')[0]!) as string);
    }
    expect(titles).to.deep.equal(DESCRIPTORS.map((d) => d.title));
    // The very features the descriptor algorithm makes for a dataset.
    const described = await apply(`${app.url}/algorithm/physchem`, { dataset_uri: dataset });
    const made = (await nt(described.body)).split('\n').filter((l) => l.includes(`#hasSource> <${app.url}/algorithm/physchem>`)).map((l) => l.slice(1, l.indexOf('>')));
    expect([...new Set(made)].sort()).to.deep.equal([...inputs].sort());
    // Its page counts them.
    expect(await (await fetch(built.body, { headers: { Accept: 'text/html' } })).text()).to.contain(`<dt>Independent variables</dt><dd>${DESCRIPTORS.length} features`);
  });

  it('a model on Morgan fingerprints lists its fingerprint as one feature, ot:hasSource the learning algorithm; another model of it reuses it', async () => {
    const built = await apply(`${app.url}/algorithm/knn`, { dataset_uri: dataset, prediction_feature: target, folds: '2', bits: '256', k: '2' });
    expect(built.status, built.body).to.equal(200);
    const triples = await nt(built.body);
    const algorithm = `${app.url}/algorithm/knn`;
    const inputs = inputList(triples, built.body, `${app.url}/ontology/service#`);
    expect(inputs).to.have.length(1);
    expect(objects(triples, built.body, `${OT}independentVariables`)).to.deep.equal(inputs);
    const own = await nt(inputs[0]!);
    expect(objects(own, inputs[0]!, `${OT}hasSource`)).to.deep.equal([algorithm]);
    expect(objects(own, inputs[0]!, 'http://purl.org/dc/elements/1.1/title')[0]).to.match(/^"Morgan fingerprint \(radius 2, 256 bits/);
    const again = await apply(`${app.url}/algorithm/knn`, { dataset_uri: dataset, prediction_feature: target, folds: '2', bits: '256', k: '3' });
    expect(inputList(await nt(again.body), again.body, `${app.url}/ontology/service#`)).to.deep.equal(inputs);
  });

  it('a forest with toxicophores names them, after the MACCS keys, in its fingerprint feature', async () => {
    const built = await apply(`${app.url}/algorithm/random-forest`, { dataset_uri: dataset, prediction_feature: target, folds: '2', bits: '256', trees: '5', toxicophores: 'true' });
    expect(built.status, built.body).to.equal(200);
    const inputs = inputList(await nt(built.body), built.body, `${app.url}/ontology/service#`);
    expect(inputs).to.have.length(1);
    const title = JSON.parse(objects(await nt(inputs[0]!), inputs[0]!, 'http://purl.org/dc/elements/1.1/title')[0]!) as string;
    expect(title).to.equal(`Morgan fingerprint (radius 2, 256 bits, bit j of the vector is input j) then the 167 MACCS keys (key j is input 256 + j) then the ${TOXICOPHORES.length} mutagenicity toxicophores after Kazius et al. 2005 (alert j is input 423 + j)`);
  });
});
