// A validation (docs/validation.md) for a person: what was validated, the pooled and
// per-fold figures, and plots from the held-out predictions themselves: the ROC curve of
// the positive class's scores and the confusion matrix, or observed vs predicted beside
// the residuals; for a cross-validation, the spread of the headline figures over the folds.
import { DC, OT } from '../rdf/vocab.ts';
import type { Graph } from './graph.ts';
import { html, link, type Html } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import { fmt, foldSpread, observedPredicted, residuals, rocSpace, type FoldSeries } from './plots.ts';
import { confusionCells, confusionTable, rocCurve, statisticsRows } from './statistics.ts';
import type { PageInput } from './page.ts';

export interface Held { compound: string; actual?: string; predicted?: string; score?: number }

export function heldOut(g: Graph, v: string): Held[] {
  return g.values(v, OT.prediction).map((p) => {
    const score = g.value(p, OT.positiveClassScore);
    return { compound: g.value(p, OT.compound) ?? '', actual: g.value(p, OT.actualValue), predicted: g.value(p, OT.predictedValue), score: score === undefined ? undefined : Number(score) };
  });
}

export function classificationPlots(g: Graph, statistics: string, held: Held[]): Html {
  const cells = confusionCells(g, statistics);
  const n = cells.length ? Math.max(...cells.map((c) => c.a)) + 1 : 0;
  // The positive class is the last class, the one whose score the learners give (docs/validation.md).
  const positive = cells.find((c) => c.a === n - 1)?.actual;
  const scored = held.filter((h) => h.actual !== undefined && h.score !== undefined && Number.isFinite(h.score));
  const curve = n === 2 && positive !== undefined ? rocCurve(scored.map((h) => h.actual === positive), scored.map((h) => h.score!)) : [];
  const auc = Number(g.value(statistics, OT.areaUnderRoc));
  return html`<div class="plots">${curve.length ? html`<figure>${rocSpace([], auc, curve)}<figcaption>ROC curve of the held-out scores for class ${positive} (${scored.length} compounds).</figcaption></figure>` : ''}${cells.length ? confusionTable(cells) : ''}</div>`;
}

export function regressionPlot(held: Held[], title: string, withResiduals = false): Html {
  const pairs = held.flatMap((h) => {
    const observed = Number(h.actual);
    const predicted = Number(h.predicted);
    return h.actual !== undefined && h.predicted !== undefined && Number.isFinite(observed) && Number.isFinite(predicted) ? [{ observed, predicted, label: h.compound }] : [];
  });
  if (!pairs.length) return html``;
  const plot = html`<figure>${observedPredicted(pairs, title)}<figcaption>Held-out predictions: every compound predicted by a model that did not see it.</figcaption></figure>`;
  return withResiduals
    ? html`<div class="plots">${plot}<figure>${residuals(pairs, title)}<figcaption>Residuals (observed − predicted) of the same held-out predictions against the predicted value; the dashed line is zero.</figcaption></figure></div>`
    : plot;
}

/** The headline figures of a cross-validation, per plot: figures sharing a scale share one. */
const HEADLINE: Record<'classification' | 'regression', ReadonlyArray<ReadonlyArray<[string, typeof OT.rSquare]>>> = {
  classification: [[['balanced accuracy', OT.balancedAccuracy], ['MCC', OT.matthewsCorrelationCoefficient], ['AUC', OT.areaUnderRoc]]],
  regression: [[['R²', OT.rSquare]], [['RMSE', OT.rootMeanSquaredError]]],
};

/** One dot per fold for each headline figure, the pooled figure marked (docs/validation.md). */
export function foldSpreadPlots(g: Graph, statistics: string, foldStatistics: ReadonlyArray<string | undefined>, task: 'classification' | 'regression'): Html {
  const figure = (node: string | undefined, term: typeof OT.rSquare) => {
    const v = node === undefined ? undefined : g.value(node, term);
    return v === undefined ? NaN : Number(v);
  };
  const plots = HEADLINE[task].map((group) => {
    const series: FoldSeries[] = group.map(([label, term]) => ({ label, folds: foldStatistics.map((f) => figure(f, term)), pooled: figure(statistics, term) }));
    return html`<figure>${foldSpread(series, group.length === 1 ? group[0]![0] : 'figure')}<figcaption>${group.map(([l]) => l).join(', ')} of each of the ${foldStatistics.length} folds (dots, fold 1 leftmost) and of all held-out predictions pooled (bar).</figcaption></figure>`;
  });
  return html`<div class="plots">${plots}</div>`;
}

/** External set: the share inside the model's applicability domain, figures inside and outside (docs/validation.md). */
function domainSection(g: Graph, uri: string): Html {
  const share = g.value(uri, OT.shareInsideDomain);
  if (share === undefined) return html``;
  const inside = g.value(uri, OT.insideDomainStatistics);
  const outside = g.value(uri, OT.outsideDomainStatistics);
  const column = (node: string | undefined, label: string) => (node ? html`<td><table class="statistics"><caption>${label}</caption><tbody>${statisticsRows(g, node)}</tbody></table></td>` : '');
  return html`<h2>Applicability domain</h2><p>${fmt(100 * Number(share))} % of the predicted compounds are inside the model's applicability domain.</p>
<table class="domain"><tbody><tr>${column(inside, 'Inside the domain')}${column(outside, 'Outside the domain')}</tr></tbody></table>`;
}

/** Conformal regions: how often the held-out value or class lay in them, against the level asked (docs/models.md). */
function conformalSection(g: Graph, statistics: string | undefined): Html {
  const level = statistics === undefined ? undefined : g.value(statistics, OT.confidenceLevel);
  const coverage = statistics === undefined ? undefined : g.value(statistics, OT.empiricalCoverage);
  if (level === undefined || coverage === undefined) return html``;
  const width = g.value(statistics!, OT.medianIntervalWidth);
  const size = g.value(statistics!, OT.meanPredictionSetSize);
  const what = width !== undefined ? 'measured values lie in their conformal prediction interval' : 'classes are in their conformal prediction set';
  const spread = width !== undefined ? html`; the median interval is ${fmt(Number(width))} wide` : size !== undefined ? html`; a set holds ${fmt(Number(size))} classes on average` : '';
  return html`<h2>Conformal prediction</h2><p>At confidence level ${fmt(100 * Number(level))} %, ${fmt(100 * Number(coverage))} % of the held-out compounds' ${what} (empirical coverage)${spread}.</p>`;
}

export async function validationPage(input: PageInput): Promise<string> {
  const g = await input.graph();
  const { uri, base } = input;
  const classification = g.value(uri, OT.classificationStatistics);
  const statistics = classification ?? g.value(uri, OT.regressionStatistics);
  const feature = g.value(uri, OT.predictionFeature);
  const held = heldOut(g, uri);
  const folds = g.subjects(OT.crossvalidation).filter((f) => g.value(f, OT.crossvalidation) === uri)
    .sort((a, b) => Number(g.value(a, OT.crossvalidationFold)) - Number(g.value(b, OT.crossvalidationFold)));
  const foldStats = (f: string) => g.value(f, OT.classificationStatistics) ?? g.value(f, OT.regressionStatistics);
  const row = (label: string, value: Html | string | undefined) => (value === undefined ? '' : html`<dt>${label}</dt><dd>${value}</dd>`);
  const linked = (p: typeof OT.algorithm) => (g.value(uri, p) ? link(g.value(uri, p)!, base) : undefined);
  const body = html`<dl>${row('Type', g.value(uri, OT.validationType))}${row('Algorithm', linked(OT.algorithm))}${row('Dataset', linked(OT.dataset))}${row('Test dataset', linked(OT.testDataset))}
${row('Prediction feature', linked(OT.predictionFeature))}${row('Folds', g.value(uri, OT.numFolds))}${row('Random seed', g.value(uri, OT.randomSeed))}${row('Stratified', g.value(uri, OT.stratified))}${row('Split ratio', g.value(uri, OT.splitRatio))}
${row('Models', html`${g.values(uri, OT.model).map((m, i) => html`${i ? ', ' : ''}${link(m, base)}`)}`)}</dl>
<h2>Statistics (all held-out predictions)</h2>${statistics ? html`<table class="statistics"><tbody>${statisticsRows(g, statistics)}</tbody></table>` : html`<p>None.</p>`}
<h2>Plot</h2>${statistics && classification ? classificationPlots(g, statistics, held) : regressionPlot(held, feature ? (g.value(feature, DC.title) ?? 'value') : 'value', true)}
${conformalSection(g, statistics)}${domainSection(g, uri)}
${folds.length > 1 ? html`<h2>Per fold</h2>${statistics ? foldSpreadPlots(g, statistics, folds.map(foldStats), classification ? 'classification' : 'regression') : ''}<table class="folds"><tbody>${folds.map((f) => html`<tr><th scope="row">Fold ${g.value(f, OT.crossvalidationFold)}</th><td><table><tbody>${foldStats(f) ? statisticsRows(g, foldStats(f)!) : ''}</tbody></table></td></tr>`)}</tbody></table>` : ''}`;
  return layout({ title: g.value(uri, DC.title) ?? uri, base, body, formats: formatLinks(uri, input.reply.variants.map((v) => v.type)) });
}
