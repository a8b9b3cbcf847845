// A model (SPEC §4.6) for a person: training dataset, features, cross-validated
// statistics, a plot, and a form to predict a dataset or one typed-in SMILES.
// When a cross-validation of the same algorithm on the training dataset exists (/validation),
// its held-out predictions give the plot: the ROC curve, or observed vs predicted. Otherwise,
// classification shows the model's own cross-validated confusion matrix and operating point
// (a model keeps counts, not per-compound scores), and regression the training set as the
// model predicts it.
import { DC, OT, ownTerms } from '../rdf/vocab.ts';
import { readModel } from '../models/models.ts';
import { loadDataset } from '../datasets/datasetLoad.ts';
import { readFeature } from '../features/features.ts';
import { html, link, type Html } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import { fmt, observedPredicted, rocSpace } from './plots.ts';
import { confusionCells, confusionTable, rocPoint, statisticsRows } from './statistics.ts';
import { Graph } from './graph.ts';
import { classificationPlots, heldOut, regressionPlot as heldOutPlot } from './validationPage.ts';
import { listValidations } from '../validation/validations.ts';
import { jobBox, script } from './script.ts';
import type { PageInput } from './page.ts';
import { readFilter } from '../auth/readAccess.ts';

/** Training sets larger than this are not re-predicted for a page view. */
const MOST_PLOTTED = 5000;

async function regressionPlot(input: PageInput, title: string): Promise<Html> {
  const { info, data } = await readModel(input.deps, input.uri);
  const predictor = input.deps.predictors.get(info.kind);
  const target = info.dependentVariables[0];
  if (!predictor || !target || !info.trainingDataset.startsWith(input.base + '/')) return html``;
  // The plot shows the training set's values: only to whom may read that dataset.
  const keep = readFilter(input.deps, input.ctx);
  if (keep && !(await keep(info.trainingDataset))) return html``;
  const training = await loadDataset(input.deps, info.trainingDataset);
  if (training.compounds.length > MOST_PLOTTED) return html`<p>The training set has more than ${MOST_PLOTTED} entries; no plot is drawn.</p>`;
  const column = training.features.findIndex((f) => f.uri === target);
  if (column < 0) return html``;
  const out = await predictor({ model: info, data, dataset: training });
  const pairs = training.compounds.flatMap((c, i) => {
    const measured = training.values[i]![column]; // values has a row per compound
    const observed = Number(measured);
    const predicted = Number(out.values[i]?.[0]);
    return measured !== undefined && out.values[i]?.[0] !== null && Number.isFinite(observed) && Number.isFinite(predicted) ? [{ observed, predicted, label: c }] : [];
  });
  if (!pairs.length) return html``;
  return html`<figure>${observedPredicted(pairs, title)}<figcaption>Training set predicted by the model (fitted values, not cross-validated; the cross-validated figures are in the table).</figcaption></figure>`;
}

/** A cross-validation of `algorithm` on `dataset` for the same endpoint, if one exists. */
async function crossValidation(input: PageInput, algorithm: string, dataset: string, target: string | undefined): Promise<{ uri: string; g: Graph; classification?: string } | undefined> {
  const { uris } = await listValidations(input.deps, { page: 0, pageSize: 50, offset: 0, limit: 50 }, { algorithm, dataset }, readFilter(input.deps, input.ctx));
  for (const v of uris) {
    const g = new Graph(await input.deps.store.graph(v));
    if (g.value(v, OT.validationType) !== 'crossvalidation' || (target && g.value(v, OT.predictionFeature) !== target)) continue;
    return { uri: v, g, classification: g.value(v, OT.classificationStatistics) };
  }
  return undefined;
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
  let plot: Html;
  const algorithm = g.value(uri, OT.algorithm);
  const training = g.value(uri, OT.trainingDataset);
  const target = g.values(uri, OT.dependentVariables)[0];
  const cross = algorithm && training ? await crossValidation(input, algorithm, training, target) : undefined;
  if (cross) {
    const title = target ? ((await titled(target)) ?? 'value') : 'value';
    plot = html`<p>From ${link(cross.uri, base)}, a cross-validation of this algorithm on this dataset:</p>${cross.classification
      ? classificationPlots(cross.g, cross.classification, heldOut(cross.g, cross.uri))
      : heldOutPlot(heldOut(cross.g, cross.uri), title)}`;
  } else if (classification) {
    const cells = confusionCells(g, classification);
    const point = rocPoint(cells);
    const auc = Number(g.value(classification, OT.areaUnderRoc));
    plot = html`<div class="plots">${point ? html`<figure>${rocSpace([point], auc)}<figcaption>Cross-validated operating point; AUC ${fmt(auc)}.</figcaption></figure>` : ''}${cells.length ? confusionTable(cells) : ''}</div>`;
  } else {
    plot = await regressionPlot(input, target ? ((await titled(target)) ?? 'value') : 'value').catch((e: Error) => html`<p>No plot: ${e.message}</p>`);
  }
  const params = g.values(uri, OT.parameters);
  const own = ownTerms(input.deps.config.baseUrl);
  const task = g.value(uri, own.task);
  const body = html`<dl><dt>Algorithm</dt><dd>${link(g.value(uri, OT.algorithm) ?? '', base)}</dd>
<dt>Training dataset</dt><dd>${link(g.value(uri, OT.trainingDataset) ?? '', base)}</dd>
<dt>Predicts</dt><dd>${dependent}</dd>${task ? html`<dt>Task</dt><dd>${task}, because ${g.value(uri, own.taskReason) ?? ''}</dd>` : ''}<dt>Predicted features</dt><dd>${predicted.map((l, i) => html`${i ? ', ' : ''}${l}`)}</dd>
<dt>Independent variables</dt><dd>${g.values(uri, OT.independentVariables).length} features</dd>
<dt>Parameters</dt><dd>${params.map((p) => html`${g.value(p, DC.title)}=${g.value(p, OT.paramValue)} `)}</dd></dl>
${cv ? html`<h2>Cross-validation</h2><table class="statistics"><tbody><tr><th scope="row">Folds</th><td class="num">${g.value(cv, OT.numFolds)}</td></tr><tr><th scope="row">Instances</th><td class="num">${g.value(cv, OT.numInstances)}</td></tr>
${statistics ? statisticsRows(g, statistics) : ''}</tbody></table>` : html`<p>No cross-validation statistics are stored with this model.${dependent.length ? ' A model built as a fold of a validation has none: it is judged by that validation\'s held-out predictions (its validations are linked below).' : ''}</p>`}
<p><a href="${base}/validation?model=${encodeURIComponent(uri)}">Validations of this model</a>${algorithm && training ? html` · <a href="${base}/validation?${String(new URLSearchParams({ algorithm, dataset: training }))}">validations of its algorithm on its training dataset</a>` : ''}</p>
<h2>Plot</h2>${plot}
<form class="box" id="predict-dataset" method="post" action="${uri}" data-job="predict-job"><h2>Predict a dataset</h2>
<label>Dataset URI: <input name="dataset_uri" type="url" size="60" required></label><button type="submit">Predict</button></form>
<form class="box" id="predict-smiles" method="post" action="${uri}" data-job="predict-job" data-compounds="${base}/compound"><h2>Predict one structure</h2>
<label>SMILES: <input name="smiles" size="40" required></label><button type="submit">Predict</button></form>${jobBox('predict-job')}${script()}`;
  return layout({ title: g.value(uri, DC.title) ?? uri, base, body, formats: formatLinks(uri, input.reply.variants.map((v) => v.type)) });
}
