// A model (SPEC §4.6) for a person: training dataset, features, cross-validated
// statistics, a plot, and a form to predict a dataset or one typed-in SMILES.
// Classification: the confusion matrix and the cross-validated operating point in ROC space
// (the model keeps its AUC and confusion counts, not per-compound scores).
// Regression: observed vs predicted over the training set, predicted by the model itself.
import { DC, OT } from '../rdf/vocab.ts';
import { readModel } from '../models/models.ts';
import { predictorOf } from '../models/predictors.ts';
import { loadDataset } from '../datasets/datasetLoad.ts';
import { readFeature } from '../features/features.ts';
import type { Graph } from './graph.ts';
import { html, link, type Html } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import { fmt, observedPredicted, rocSpace } from './plots.ts';
import { jobBox, script } from './script.ts';
import type { PageInput } from './page.ts';

/** Training sets larger than this are not re-predicted for a page view. */
const MOST_PLOTTED = 5000;

const STATS: ReadonlyArray<[keyof typeof OT, string]> = [
  ['percentCorrect', 'Percent correct'], ['balancedAccuracy', 'Balanced accuracy'], ['areaUnderRoc', 'AUC'],
  ['rSquare', 'R²'], ['rootMeanSquaredError', 'RMSE'], ['meanAbsoluteError', 'MAE'],
];

interface Cell { actual: string; predicted: string; a: number; p: number; count: number }

function confusionCells(g: Graph, statistics: string): Cell[] {
  return g.values(statistics, OT.confusionMatrix).map((c) => {
    const [, a, p] = /confusion-(\d+)-(\d+)$/.exec(c) ?? ['', '0', '0'];
    return { actual: g.value(c, OT.confusionMatrixActual) ?? '', predicted: g.value(c, OT.confusionMatrixPredicted) ?? '', a: Number(a), p: Number(p), count: Number(g.value(c, OT.confusionMatrixValue)) };
  });
}

function confusionTable(cells: Cell[]): Html {
  const n = Math.max(...cells.map((c) => c.a)) + 1;
  const label = (i: number) => cells.find((c) => c.a === i)?.actual ?? String(i);
  const count = (a: number, p: number) => cells.find((c) => c.a === a && c.p === p)?.count ?? 0;
  const idx = [...Array(n).keys()];
  return html`<figure><table class="confusion">
<thead><tr><th></th>${idx.map((p) => html`<th scope="col">${label(p)}</th>`)}</tr></thead>
<tbody>${idx.map((a) => html`<tr><th scope="row">${label(a)}</th>${idx.map((p) => html`<td class="num">${count(a, p)}</td>`)}</tr>`)}</tbody></table>
<figcaption>Confusion matrix (cross-validated): rows actual, columns predicted.</figcaption></figure>`;
}

/** The operating point of the positive (last) class, as the AUC is computed (metrics.ts). */
function rocPoint(cells: Cell[]): { fpr: number; tpr: number; label: string } | undefined {
  const n = Math.max(...cells.map((c) => c.a)) + 1;
  if (n !== 2) return undefined;
  const count = (a: number, p: number) => cells.find((c) => c.a === a && c.p === p)?.count ?? 0;
  const pos = count(1, 0) + count(1, 1);
  const neg = count(0, 0) + count(0, 1);
  if (!pos || !neg) return undefined;
  return { tpr: count(1, 1) / pos, fpr: count(0, 1) / neg, label: `cross-validated, positive class ${cells.find((c) => c.a === 1)?.actual}` };
}

async function regressionPlot(input: PageInput, title: string): Promise<Html> {
  const { info, data } = await readModel(input.deps, input.uri);
  const predictor = predictorOf(info.kind);
  const target = info.dependentVariables[0];
  if (!predictor || !target || !info.trainingDataset.startsWith(input.base + '/')) return html``;
  const training = await loadDataset(input.deps, info.trainingDataset);
  if (training.compounds.length > MOST_PLOTTED) return html`<p>The training set has more than ${MOST_PLOTTED} entries; no plot is drawn.</p>`;
  const column = training.features.findIndex((f) => f.uri === target);
  if (column < 0) return html``;
  const out = await predictor(input.deps, { model: info, data, dataset: training });
  const pairs = training.compounds.flatMap((c, i) => {
    const observed = Number(training.values[i][column]);
    const predicted = Number(out.values[i]?.[0]);
    return training.values[i][column] !== undefined && out.values[i]?.[0] !== null && Number.isFinite(observed) && Number.isFinite(predicted) ? [{ observed, predicted, label: c }] : [];
  });
  if (!pairs.length) return html``;
  return html`<figure>${observedPredicted(pairs, title)}<figcaption>Training set predicted by the model (fitted values, not cross-validated; the cross-validated figures are in the table).</figcaption></figure>`;
}

export async function modelPage(input: PageInput): Promise<string> {
  const g = await input.graph();
  const { uri, base } = input;
  const titled = async (f: string) => g.value(f, DC.title) ?? (await readFeature(input.deps, f))?.title;
  const links = async (p: typeof OT.dependentVariables) => Promise.all(g.values(uri, p).map(async (f) => link(f, base, await titled(f))));
  const [dependent, predicted] = [await links(OT.dependentVariables), await links(OT.predictedVariables)];
  const cv = g.value(uri, OT.crossvalidationInfo);
  const classification = cv ? g.value(cv, OT.classificationStatistics) : undefined;
  const regression = cv ? g.value(cv, OT.regressionStatistics) : undefined;
  const statistics = classification ?? regression;
  const stats = statistics ? STATS.filter(([p]) => g.value(statistics, OT[p] as typeof OT.rSquare) !== undefined) : [];
  let plot: Html;
  if (classification) {
    const cells = confusionCells(g, classification);
    const point = rocPoint(cells);
    const auc = Number(g.value(classification, OT.areaUnderRoc));
    plot = html`<div class="plots">${point ? html`<figure>${rocSpace([point], auc)}<figcaption>Cross-validated operating point; AUC ${fmt(auc)}.</figcaption></figure>` : ''}${cells.length ? confusionTable(cells) : ''}</div>`;
  } else {
    const target = g.values(uri, OT.dependentVariables)[0];
    plot = await regressionPlot(input, target ? ((await titled(target)) ?? 'value') : 'value').catch((e: Error) => html`<p>No plot: ${e.message}</p>`);
  }
  const params = g.values(uri, OT.parameters);
  const body = html`<dl><dt>Algorithm</dt><dd>${link(g.value(uri, OT.algorithm) ?? '', base)}</dd>
<dt>Training dataset</dt><dd>${link(g.value(uri, OT.trainingDataset) ?? '', base)}</dd>
<dt>Predicts</dt><dd>${dependent}</dd><dt>Predicted features</dt><dd>${predicted.map((l, i) => html`${i ? ', ' : ''}${l}`)}</dd>
<dt>Independent variables</dt><dd>${g.values(uri, OT.independentVariables).length} features</dd>
<dt>Parameters</dt><dd>${params.map((p) => html`${g.value(p, DC.title)}=${g.value(p, OT.paramValue)} `)}</dd></dl>
${cv ? html`<h2>Cross-validation</h2><table class="statistics"><tbody><tr><th scope="row">Folds</th><td class="num">${g.value(cv, OT.numFolds)}</td></tr><tr><th scope="row">Instances</th><td class="num">${g.value(cv, OT.numInstances)}</td></tr>
${stats.map(([p, label]) => html`<tr><th scope="row">${label}</th><td class="num">${fmt(Number(g.value(statistics!, OT[p] as typeof OT.rSquare)))}</td></tr>`)}</tbody></table>` : html`<p>No cross-validation statistics are stored with this model.</p>`}
<h2>Plot</h2>${plot}
<form class="box" id="predict-dataset" method="post" action="${uri}" data-job="predict-job"><h2>Predict a dataset</h2>
<label>Dataset URI: <input name="dataset_uri" type="url" size="60" required></label><button type="submit">Predict</button></form>
<form class="box" id="predict-smiles" method="post" action="${uri}" data-job="predict-job" data-compounds="${base}/compound"><h2>Predict one structure</h2>
<label>SMILES: <input name="smiles" size="40" required></label><button type="submit">Predict</button></form>${jobBox('predict-job')}${script()}`;
  return layout({ title: g.value(uri, DC.title) ?? uri, base, body, formats: formatLinks(uri, input.reply.variants.map((v) => v.type)) });
}
