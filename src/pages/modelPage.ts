// A model (SPEC §4.6) for a person: training dataset, features, cross-validated
// statistics, a plot, and a form to predict a dataset or one typed-in SMILES.
// The plot is of the predicted variable, held out: from a cross-validation of the same
// algorithm on the training dataset when one exists (/validation), else from the model's own
// cross-validation (ROC curve and confusion matrix, or observed vs cross-validated predicted
// with residuals); never the fitted training values, which flatter a model. A model no
// better than the mean or chance says so.
import { DC, OT, ownTerms } from '../rdf/vocab.ts';
import { readModel } from '../models/models.ts';
import { readFeature } from '../features/features.ts';
import type { ModelData } from '../algorithms/apply.ts';
import { html, link, type Html } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import { fmt, rocSpace } from './plots.ts';
import { confusionCells, confusionTable, rocPoint, statisticsRows } from './statistics.ts';
import { Graph } from './graph.ts';
import { classificationPlots, heldOut, regressionPlot as heldOutPlot, type Held } from './validationPage.ts';
import { listValidations } from '../validation/validations.ts';
import { structureEditor } from './structureEditor.ts';
import { jobBox, script } from './script.ts';
import type { PageInput } from './page.ts';
import { readFilter } from '../auth/readAccess.ts';

/**
 * The held-out predictions the model's own cross-validation kept (trainer.ts), as the
 * validation page plots them: class labels and the positive class score, or numbers.
 */
async function ownHeldOut(input: PageInput): Promise<Held[] | undefined> {
  const { data } = await readModel(input.deps, input.uri);
  const model = (data as Partial<ModelData> | null)?.model;
  const held = model?.validation?.heldOut;
  if (!model || !held) return undefined;
  const label = (v: number) => (model.task === 'classification' ? (model.classes[v] ?? String(v)) : String(v));
  return held.map((h) => ({ compound: h.compound, actual: label(h.actual), predicted: label(h.predicted), score: h.score }));
}

/** A plain warning when the cross-validated figures say the model is no better than the mean or chance. */
function verdict(g: Graph, classification: string | undefined, regression: string | undefined): Html {
  if (regression) {
    const q2 = Number(g.value(regression, OT.rSquare));
    if (Number.isFinite(q2) && q2 < 0) return html`<p class="warning" role="alert"><strong>This model predicts worse than the mean.</strong> Its cross-validated Q² is ${fmt(q2)}, below 0: predicting the training mean for every compound would be closer to the measured values than this model's held-out predictions.</p>`;
  }
  if (classification) {
    const ba = Number(g.value(classification, OT.balancedAccuracy));
    if (Number.isFinite(ba) && ba <= 0.5) return html`<p class="warning" role="alert"><strong>This model predicts no better than chance.</strong> Its cross-validated balanced accuracy is ${fmt(ba)}, at most 0.5, what guessing the classes at random achieves.</p>`;
  }
  return html``;
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
  } else {
    // The model's own cross-validation, held out per compound; models stored before it kept
    // them show the operating point of their confusion matrix.
    const held = cv ? await ownHeldOut(input).catch(() => undefined) : undefined;
    const title = target ? ((await titled(target)) ?? 'value') : 'value';
    if (held && classification) plot = classificationPlots(g, classification, held);
    else if (held && regression) plot = heldOutPlot(held, title, true);
    else if (classification) {
      const cells = confusionCells(g, classification);
      const point = rocPoint(cells);
      const auc = Number(g.value(classification, OT.areaUnderRoc));
      plot = html`<div class="plots">${point ? html`<figure>${rocSpace([point], auc)}<figcaption>Cross-validated operating point; AUC ${fmt(auc)}.</figcaption></figure>` : ''}${cells.length ? confusionTable(cells) : ''}</div>`;
    } else plot = html`<p>This model keeps no held-out predictions to plot; a cross-validation of its algorithm on its training dataset would.</p>`;
  }
  const params = g.values(uri, OT.parameters);
  const own = ownTerms(input.deps.config.baseUrl);
  const task = g.value(uri, own.task);
  const body = html`<dl><dt>Algorithm</dt><dd>${link(g.value(uri, OT.algorithm) ?? '', base)}</dd>
<dt>Training dataset</dt><dd>${link(g.value(uri, OT.trainingDataset) ?? '', base)}</dd>
<dt>Predicts</dt><dd>${dependent}</dd>${task ? html`<dt>Task</dt><dd>${task}, because ${g.value(uri, own.taskReason) ?? ''}</dd>` : ''}<dt>Predicted features</dt><dd>${predicted.map((l, i) => html`${i ? ', ' : ''}${l}`)}</dd>
<dt>Independent variables</dt><dd>${g.values(uri, OT.independentVariables).length} features</dd>
<dt>Parameters</dt><dd>${params.map((p) => html`${g.value(p, DC.title)}=${g.value(p, OT.paramValue)} `)}</dd></dl>
${verdict(g, classification, regression)}${cv ? html`<h2>Cross-validation</h2><table class="statistics"><tbody><tr><th scope="row">Folds</th><td class="num">${g.value(cv, OT.numFolds)}</td></tr><tr><th scope="row">Instances</th><td class="num">${g.value(cv, OT.numInstances)}</td></tr>
${statistics ? statisticsRows(g, statistics) : ''}</tbody></table>` : html`<p>No cross-validation statistics are stored with this model.${dependent.length ? ' A model built as a fold of a validation has none: it is judged by that validation\'s held-out predictions (its validations are linked below).' : ''}</p>`}
<p><a href="${base}/validation?model=${encodeURIComponent(uri)}">Validations of this model</a>${algorithm && training ? html` · <a href="${base}/validation?${String(new URLSearchParams({ algorithm, dataset: training }))}">validations of its algorithm on its training dataset</a>` : ''}</p>
<p><a href="${uri}/qmrf?media=application%2Fxml" download="qmrf.xml" role="button" id="qmrf-download">Download the QMRF report (XML)</a> · <a href="${uri}/qmrf">read it as a page</a></p>
<h2>Plot</h2>${plot}
<form class="box" id="predict-dataset" method="post" action="${uri}" data-job="predict-job"><h2>Predict a dataset</h2>
<label>Dataset URI: <input name="dataset_uri" type="url" size="60" required></label><button type="submit">Predict</button></form>
<form class="box" id="predict-smiles" method="post" action="${uri}" data-job="predict-job" data-compounds="${base}/compound"><h2>Predict one structure</h2>
<label>SMILES: <input id="predict-smiles-input" name="smiles" size="40" required></label>${structureEditor('predict-smiles-input', base)}<button type="submit">Predict</button></form>${jobBox('predict-job')}${script()}`;
  return layout({ title: g.value(uri, DC.title) ?? uri, base, body, formats: formatLinks(uri, input.reply.variants.map((v) => v.type)) });
}
