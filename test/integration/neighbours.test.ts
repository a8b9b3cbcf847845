// Read-across neighbours as linked data: each kNN prediction entry links its neighbours as
// nodes of the service's own vocabulary (ontology/service.ttl), queried here with SPARQL
// and judged against RDKit Python's Tanimoto similarity on the same Morgan fingerprints.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';
import { rdkitTanimoto } from '../helpers/rdkitPython.ts';

async function apply(url: string, f: Record<string, string>): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams(f) });
  const text = (await res.text()).trim();
  return res.status === 202 ? followTask(text) : { status: res.status, body: text };
}

const nt = async (url: string) => (await fetch(url, { headers: { Accept: 'application/n-triples' } })).text();

// Boiling points (°C) of alcohols, amines and acids: a read-across regression.
const TRAINING = `SMILES,bp
CCO,78.4
CCCO,97
CCCCO,117.7
CC(C)O,82.5
CCCCCO,138
CCN,16.6
CCCN,48
CCCCN,77
CC(C)N,32
CC(=O)O,118
CCC(=O)O,141
CCCC(=O)O,163.5
`;
const QUERIES = ['CCCCCCO', 'CCCCCN', 'CC(C)CO', 'CCCCC(=O)O'];

describe('read-across neighbours as linked data', function () {
  this.timeout(300_000);
  let app: TestApp;
  let model: string;
  let predicted: string;
  let own: string;
  let stored: string[];
  before(async () => {
    app = await startApp();
    own = `${app.url}/ontology/service#`;
    const training = (await uploadDataset(app, TRAINING, 'text/csv')).body;
    // The stored (canonical) SMILES of the training rows, in upload order.
    stored = (await lines(training, 'text/csv')).slice(1).map((l) => l.split(',')[1]!);
    const triples = await nt(training);
    const line = triples.split('\n').find((l) => l.includes('/title> "bp"'))!;
    const built = await apply(`${app.url}/algorithm/knn`, { dataset_uri: training, prediction_feature: line.slice(1, line.indexOf('>')), k: '3', folds: '2' });
    expect(built.status, built.body).to.equal(200);
    model = built.body;
    const queries = (await uploadDataset(app, `SMILES\n${QUERIES.join('\n')}\n`, 'text/csv')).body;
    const run = await apply(model, { dataset_uri: queries });
    expect(run.status, run.body).to.equal(200);
    predicted = run.body;
  });
  after(async () => { await app.close(); });

  it('the model lists its neighbour output as its own kind of output, not as a predicted variable', async () => {
    const triples = await nt(model);
    const output = `${model}#neighbours`;
    expect(triples).to.contain(`<${model}> <${own}neighbourOutput> <${output}> .`);
    expect(triples).to.contain(`<${output}> <${own}neighbourCount> "3"^^<http://www.w3.org/2001/XMLSchema#integer> .`);
    expect(triples).to.contain(`<${output}> <${own}similarityMeasure> "Tanimoto similarity of Morgan fingerprints (radius 2, 2048 bits)" .`);
    const variables = triples.split('\n').filter((l) => l.startsWith(`<${model}> <http://www.opentox.org/api/1.1#predictedVariables>`));
    expect(variables).to.have.length(3);
    for (const v of variables) expect(await nt(v.split(' ')[2]!.slice(1, -1))).to.not.contain(': neighbours').and.not.contain('StringFeature');
  });

  it('a SPARQL query over the neighbours finds, per prediction, the 3 most similar training compounds with RDKit\'s Tanimoto similarity and their measured value', async () => {
    const query = `PREFIX ot: <http://www.opentox.org/api/1.1#>
PREFIX own: <${own}>
PREFIX schema: <http://schema.org/>
SELECT ?query ?rank ?train ?similarity ?value WHERE {
  GRAPH <${predicted}> { ?e ot:compound ?c ; own:neighbour ?n . ?n a own:Neighbour ; own:neighbourOf <${model}#neighbours> ; own:rank ?rank ; own:trainingCompound ?t ; own:similarity ?similarity ; own:measuredValue ?value }
  GRAPH ?cg { ?c schema:smiles ?query } GRAPH ?tg { ?t schema:smiles ?train }
} ORDER BY ?query ?rank`;
    const res = await fetch(`${app.url}/sparql?query=${encodeURIComponent(query)}`, { headers: { Accept: 'application/sparql-results+json' } });
    expect(res.status).to.equal(200);
    const rows = ((await res.json()) as { results: { bindings: Array<Record<string, { value: string }>> } }).results.bindings;
    expect(rows).to.have.length(QUERIES.length * 3);
    const training = TRAINING.trim().split('\n').slice(1).map((l) => l.split(','));
    // Canonical SMILES as stored: the queries and training structures of the answer.
    const queries = [...new Set(rows.map((r) => r.query!.value))];
    const trainSmiles = [...new Set(rows.map((r) => r.train!.value))];
    const judged = rdkitTanimoto(queries, training.map((t) => t[0]!));
    for (const [qi, q] of queries.entries()) {
      const mine = rows.filter((r) => r.query!.value === q);
      expect(mine.map((r) => Number(r.rank!.value))).to.deep.equal([1, 2, 3]);
      const best = [...judged[qi]!].sort((a, b) => b - a).slice(0, 3);
      mine.forEach((r, k) => {
        expect(Number(r.similarity!.value), `${q} rank ${k + 1}`).to.be.closeTo(best[k]!, 1e-12);
        // The named neighbour has that similarity, and its measured value is its training value.
        const row = stored.indexOf(r.train!.value);
        expect(judged[qi]![row], `${q} → ${r.train!.value}`).to.be.closeTo(Number(r.similarity!.value), 1e-12);
        expect(Number(r.value!.value)).to.equal(Number(training[row]![1]));
      });
    }
    expect(trainSmiles.length).to.be.greaterThan(3);
  });

  it('CSV carries one column group per neighbour rank, the entry URI dereferences with its neighbours, and each term to its definition', async () => {
    const csv = await lines(predicted, 'text/csv');
    const head = csv[0]!.split(',');
    const at = head.indexOf('neighbour_1 compound');
    expect(head.slice(at)).to.deep.equal([1, 2, 3].flatMap((r) => [`neighbour_${r} compound`, `neighbour_${r} similarity`, `neighbour_${r} value`]));
    const triples = await nt(predicted);
    const entry = triples.split('\n').find((l) => l.includes('#dataEntry>'))!.split(' ')[2]!.slice(1, -1);
    const first = triples.split('\n').find((l) => l.startsWith(`<${entry}#neighbour-1> <${own}trainingCompound>`))!.split(' ')[2]!.slice(1, -1);
    const n = Number(entry.slice(entry.lastIndexOf('/') + 1));
    expect(csv[n]!.split(',')[at]).to.equal(first);
    expect(await nt(entry)).to.contain(`<${entry}> <${own}neighbour> <${entry}#neighbour-1>`).and.contain(`<${entry}#neighbour-3> <${own}rank> "3"`);
    const ontology = await nt(`${app.url}/ontology/service`);
    for (const term of ['Neighbour', 'NeighbourOutput', 'neighbour', 'neighbourOf', 'rank', 'trainingCompound', 'similarity', 'measuredValue', 'neighbourCount']) {
      expect(ontology, term).to.contain(`<${own}${term}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>`);
    }
  });

  it('the prediction page shows each neighbour\'s depiction, similarity and measured value beside the prediction, numbers rounded', async () => {
    const res = await fetch(predicted, { headers: { Accept: 'text/html' } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    const page = await res.text();
    expect(page).to.contain('Neighbours (similarity, measured value)');
    const cells = page.match(/<ol class="neighbours">[\s\S]*?<\/ol>/g) ?? [];
    expect(cells).to.have.length(QUERIES.length);
    for (const cell of cells) {
      expect(cell.match(/<li>/g)).to.have.length(3);
      expect(cell.match(/<svg/g)).to.have.length(3);
      expect(cell).to.match(/similarity (0|1)\.\d{3}, measured \d+(\.\d+)?</);
    }
    // Predicted values are weighted means: long decimals in the data, two places on the page.
    expect(page).to.not.match(/>\d+\.\d{5,}</);
    expect(await lines(predicted, 'text/csv')).to.satisfy((l: string[]) => l.slice(1).some((x) => /,\d+\.\d{5,}/.test(x)));
  });
});
