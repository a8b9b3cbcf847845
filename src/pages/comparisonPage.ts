// The algorithm comparison report (POST or GET /validation/report/algorithm_comparison,
// docs/validation.md) for a person: per figure, each learner's figure per fold, their mean
// and the pooled figure, the paired t-tests over the folds, and a plot joining each fold's
// figures across the learners. Rendered from the report's own JSON representation.
import type { Comparison } from '../validation/comparison.ts';
import { variantText } from './graph.ts';
import { html, link, type Html } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import { fmt, pairedFolds } from './plots.ts';
import type { PageInput } from './page.ts';

/** Names of the report's figures as a person reads them (statistics.ts labels). */
const NAMES: Record<string, string> = {
  accuracy: 'accuracy', balancedAccuracy: 'balanced accuracy', sensitivity: 'sensitivity', specificity: 'specificity',
  mcc: 'MCC', auc: 'AUC', r2: 'R²', q2: 'Q²', rmse: 'RMSE', mae: 'MAE',
};

// JSON has no NaN or ±Infinity: a figure no fold could give (one class in a fold) is null.
const num = (v: number | null | undefined): Html => html`<td class="num">${typeof v === 'number' && Number.isFinite(v) ? fmt(v) : '–'}</td>`;
const mean = (v: readonly number[]) => {
  const finite = v.filter(Number.isFinite);
  return finite.length ? finite.reduce((s, x) => s + x, 0) / finite.length : NaN;
};

/** Short learner names for the plot: the algorithm's id, numbered when two share one. */
export function learnerLabels(algorithms: readonly string[]): string[] {
  const ids = algorithms.map((a) => /\/algorithm\/([^/]+)/.exec(a)?.[1] ?? a);
  return ids.map((id, i) => (ids.filter((x) => x === id).length > 1 ? `${id} ${ids.slice(0, i + 1).filter((x) => x === id).length}` : id));
}

export async function comparisonPage(input: PageInput): Promise<string> {
  const { base } = input;
  const report = JSON.parse((await variantText(input.reply, 'application/json')) ?? '{}') as Comparison;
  // One label per validation, in order: labels[i] below is always there.
  const labels = learnerLabels(report.validations.map((v) => v.algorithm));
  const folds = [...Array(report.numFolds).keys()];
  const sections = report.measures.map((m) => {
    const name = NAMES[m] ?? m;
    const tests = report.tests.filter((t) => t.measure === m);
    const label = (uri: string) => labels[report.validations.findIndex((v) => v.validation === uri)];
    return html`<section><h2>${name}</h2>
<table class="comparison"><thead><tr><th scope="col">Learner</th><th scope="col">Validation</th>${folds.map((f) => html`<th scope="col">Fold ${f + 1}</th>`)}<th scope="col">Mean of folds</th><th scope="col">Pooled</th></tr></thead>
<tbody>${report.validations.map((v, i) => html`<tr><th scope="row">${link(v.algorithm, base, labels[i])}</th><td>${link(v.validation, base)}</td>${folds.map((f) => num(v.perFold[m]?.[f]))}${num(mean(v.perFold[m] ?? []))}${num(v.pooled[m])}</tr>`)}</tbody></table>
<table class="tests"><caption>Paired t-test over the folds (two-sided)</caption><thead><tr><th scope="col">Learners</th><th scope="col">Folds</th><th scope="col">Mean difference</th><th scope="col">t</th><th scope="col">df</th><th scope="col">p</th></tr></thead>
<tbody>${tests.map((t) => html`<tr><th scope="row">${label(t.a)} − ${label(t.b)}</th><td class="num">${t.n}</td>${num(t.meanDifference)}${num(t.t)}<td class="num">${t.df}</td>${num(t.p)}</tr>`)}</tbody></table>
<figure>${pairedFolds(report.validations.map((v, i) => ({ label: labels[i]!, folds: v.perFold[m] ?? [], pooled: v.pooled[m] })), name)}<figcaption>${name} of each fold (dots), a line joining one fold's figures across the learners (the same compounds were held out in every learner's fold), and each learner's pooled figure (bar).</figcaption></figure></section>`;
  });
  const query = new URLSearchParams(report.validations.map((v) => ['validation_uris', v.validation]));
  const body = html`<dl><dt>Dataset</dt><dd>${link(report.dataset, base)}</dd><dt>Prediction feature</dt><dd>${link(report.predictionFeature, base)}</dd><dt>Folds</dt><dd>${report.numFolds}</dd></dl>
<p>The folds share training compounds, so the p-values are a guide rather than exact (Dietterich 1998).</p>${sections}`;
  return layout({ title: `Comparison of ${report.validations.length} learners`, base, body, formats: formatLinks(`${base}/validation/report/algorithm_comparison?${String(query)}`, input.reply.variants.map((v) => v.type)) });
}
