// Plots as SVG made on the server: histogram, bar counts, ROC space, observed vs
// predicted, residuals, and figures per fold (strips, or paired lines across learners).
// Plain shapes with a <title> each, readable without script or stylesheet.
import { html, type Html } from './html.ts';

const W = 320;
const H = 220;
const PAD = { l: 50, r: 12, t: 12, b: 36 };
const IW = W - PAD.l - PAD.r;
const IH = H - PAD.t - PAD.b;

export const fmt = (v: number): string => (Number.isInteger(v) ? String(v) : Math.abs(v) >= 1000 || (Math.abs(v) < 0.01 && v !== 0) ? v.toExponential(2) : v.toFixed(Math.abs(v) < 1 ? 3 : 2));

function frame(label: string, body: Html, xLabel: string, yLabel: string): Html {
  return html`<svg class="plot" role="img" aria-label="${label}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg" font-family="sans-serif" font-size="11">
<title>${label}</title><rect x="${PAD.l}" y="${PAD.t}" width="${IW}" height="${IH}" fill="#fff" stroke="#999"/>${body}
<text x="${PAD.l + IW / 2}" y="${H - 4}" text-anchor="middle">${xLabel}</text>
<text transform="translate(11 ${PAD.t + IH / 2}) rotate(-90)" text-anchor="middle">${yLabel}</text></svg>`;
}

const sx = (v: number, lo: number, hi: number) => PAD.l + (hi === lo ? IW / 2 : ((v - lo) / (hi - lo)) * IW);
const sy = (v: number, lo: number, hi: number) => PAD.t + IH - (hi === lo ? IH / 2 : ((v - lo) / (hi - lo)) * IH);

/** Low, middle and high ticks; counts get no middle tick that is not a whole number. */
function ticks(lo: number, hi: number, axis: 'x' | 'y', counts = false): Html {
  const mid = (lo + hi) / 2;
  return html`${(counts && !Number.isInteger(mid) ? [lo, hi] : [lo, mid, hi]).map((v) => axis === 'x'
    ? html`<text x="${sx(v, lo, hi)}" y="${PAD.t + IH + 13}" text-anchor="middle">${fmt(v)}</text>`
    : html`<text x="${PAD.l - 3}" y="${sy(v, lo, hi) + 4}" text-anchor="end">${fmt(v)}</text>`)}`;
}

/** A category's name under the x axis, shortened to fit a column. */
const category = (label: string, x: number): Html => html`<text x="${x}" y="${PAD.t + IH + 13}" text-anchor="middle">${label.length > 10 ? label.slice(0, 9) + '…' : label}</text>`;

/** Round marks at data coordinates, each titled (the accessible name of the point). */
function dots(points: ReadonlyArray<{ x: number; y: number; title: string }>, x: [number, number], y: [number, number], fill = '#4a7ab5', r = 3.5): Html {
  return html`${points.map((p) => html`<circle class="point" cx="${sx(p.x, ...x)}" cy="${sy(p.y, ...y)}" r="${r}" fill="${fill}" fill-opacity=".7"><title>${p.title}</title></circle>`)}`;
}

/** Bin counts of `values` in `bins` equal-width bins over [min, max] (Sturges' rule by default). */
export function binCounts(values: readonly number[], bins = Math.max(1, Math.ceil(Math.log2(values.length) + 1))): { lo: number; hi: number; counts: number[] } {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[hi === lo ? 0 : Math.min(bins - 1, Math.floor(((v - lo) / (hi - lo)) * bins))]!++; // a bin in 0..bins-1
  return { lo, hi, counts };
}

export function histogram(values: readonly number[], title: string): Html {
  const { lo, hi, counts } = binCounts(values);
  const top = Math.max(...counts);
  const bw = IW / counts.length;
  const bars = counts.map((c, i) => {
    const a = lo + ((hi - lo) * i) / counts.length;
    const b = lo + ((hi - lo) * (i + 1)) / counts.length;
    const y = sy(c, 0, top);
    return html`<rect class="bar" x="${PAD.l + i * bw + 1}" y="${y}" width="${Math.max(bw - 2, 1)}" height="${PAD.t + IH - y}" fill="#4a7ab5"><title>${fmt(a)} to ${fmt(b)}: ${c}</title></rect>`;
  });
  return frame(`Histogram of ${title} (${values.length} values)`, html`${bars}${ticks(lo, hi, 'x')}${ticks(0, top, 'y', true)}`, title, 'count');
}

export function barCounts(counts: ReadonlyArray<[string, number]>, title: string): Html {
  const top = Math.max(1, ...counts.map(([, c]) => c));
  const bw = IW / Math.max(counts.length, 1);
  const bars = counts.map(([label, c], i) => {
    const y = sy(c, 0, top);
    return html`<rect class="bar" x="${PAD.l + i * bw + 2}" y="${y}" width="${Math.max(bw - 4, 1)}" height="${PAD.t + IH - y}" fill="#5a9a68"><title>${label}: ${c}</title></rect>
${category(label, PAD.l + (i + 0.5) * bw)}`;
  });
  return frame(`Counts of ${title}`, html`${bars}${ticks(0, top, 'y', true)}`, title, 'count');
}

/**
 * ROC space: the chance diagonal, a curve when held-out scores are known, and operating
 * point(s) (FPR, TPR) when only a confusion matrix is.
 */
export function rocSpace(points: ReadonlyArray<{ fpr: number; tpr: number; label: string }>, auc: number | undefined, curve?: ReadonlyArray<{ fpr: number; tpr: number }>): Html {
  const marks = dots(points.map((p) => ({ x: p.fpr, y: p.tpr, title: `${p.label}: FPR ${fmt(p.fpr)}, TPR ${fmt(p.tpr)}` })), [0, 1], [0, 1], '#c33', 5);
  const through = curve ?? (points.length === 1 ? [{ fpr: 0, tpr: 0 }, points[0]!, { fpr: 1, tpr: 1 }] : []);
  const line = through.length ? html`<polyline class="roc" points="${through.map((p) => `${sx(p.fpr, 0, 1)},${sy(p.tpr, 0, 1)}`).join(' ')}" fill="none" stroke="#c33" stroke-width="2"><title>ROC curve</title></polyline>` : '';
  const label = `ROC ${curve ? 'curve' : 'space'}${auc !== undefined && Number.isFinite(auc) ? `, cross-validated AUC ${fmt(auc)}` : ''}`;
  return frame(label, html`<line x1="${sx(0, 0, 1)}" y1="${sy(0, 0, 1)}" x2="${sx(1, 0, 1)}" y2="${sy(1, 0, 1)}" stroke="#aaa" stroke-dasharray="4 3"/>${line}${marks}${ticks(0, 1, 'x')}${ticks(0, 1, 'y')}`, 'false positive rate', 'true positive rate');
}

export function observedPredicted(pairs: ReadonlyArray<{ observed: number; predicted: number; label: string }>, title: string): Html {
  const all = pairs.flatMap((p) => [p.observed, p.predicted]);
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const marks = dots(pairs.map((p) => ({ x: p.observed, y: p.predicted, title: `${p.label}: observed ${fmt(p.observed)}, predicted ${fmt(p.predicted)}` })), [lo, hi], [lo, hi]);
  const diagonal = html`<line x1="${sx(lo, lo, hi)}" y1="${sy(lo, lo, hi)}" x2="${sx(hi, lo, hi)}" y2="${sy(hi, lo, hi)}" stroke="#aaa" stroke-dasharray="4 3"/>`;
  return frame(`Observed vs predicted ${title} (${pairs.length} compounds)`, html`${diagonal}${marks}${ticks(lo, hi, 'x')}${ticks(lo, hi, 'y')}`, `observed ${title}`, `predicted ${title}`);
}

/**
 * Residual (observed − predicted) against predicted, with the zero line: a trend or a
 * funnel shows error that depends on the predicted value. The residual axis is symmetric
 * about zero so over- and under-prediction look alike.
 */
export function residuals(pairs: ReadonlyArray<{ observed: number; predicted: number; label: string }>, title: string): Html {
  const lo = Math.min(...pairs.map((p) => p.predicted));
  const hi = Math.max(...pairs.map((p) => p.predicted));
  const m = Math.max(...pairs.map((p) => Math.abs(p.observed - p.predicted)));
  const marks = dots(pairs.map((p) => ({ x: p.predicted, y: p.observed - p.predicted, title: `${p.label}: predicted ${fmt(p.predicted)}, residual ${fmt(p.observed - p.predicted)}` })), [lo, hi], [-m, m]);
  const zero = html`<line class="zero" x1="${PAD.l}" y1="${sy(0, -m, m)}" x2="${PAD.l + IW}" y2="${sy(0, -m, m)}" stroke="#aaa" stroke-dasharray="4 3"/>`;
  return frame(`Residuals of ${title} against predicted (${pairs.length} compounds)`, html`${zero}${marks}${ticks(lo, hi, 'x')}${ticks(-m, m, 'y')}`, `predicted ${title}`, 'observed − predicted');
}

/** Lowest and highest finite value (0, 1 when there is none). */
function range(values: readonly number[]): [number, number] {
  const finite = values.filter(Number.isFinite);
  return finite.length ? [Math.min(...finite), Math.max(...finite)] : [0, 1];
}

export interface FoldSeries {
  label: string;
  /** The figure of each fold, folds in order (NaN where a fold has none, e.g. one class). */
  folds: readonly number[];
  /** The figure of all held-out predictions pooled. */
  pooled?: number;
}

/** The pooled figure of a series as a bar across its column `c` (of width `cw`). */
function pooledBar(s: FoldSeries, c: number, cw: number, [lo, hi]: [number, number], what = s.label): Html {
  if (s.pooled === undefined || !Number.isFinite(s.pooled)) return html``;
  const y = sy(s.pooled, lo, hi);
  return html`<line class="pooled" x1="${PAD.l + (c + 0.1) * cw}" y1="${y}" x2="${PAD.l + (c + 0.9) * cw}" y2="${y}" stroke="#c33" stroke-width="2"><title>All folds pooled: ${what} ${fmt(s.pooled)}</title></line>`;
}

/**
 * One column per figure, one dot per fold (spread left to right in fold order), and the
 * pooled figure as a bar across the column: how much the folds disagree.
 */
export function foldSpread(series: readonly FoldSeries[], yLabel: string): Html {
  const [lo, hi] = range(series.flatMap((s) => [...s.folds, s.pooled ?? NaN]));
  const cw = IW / Math.max(series.length, 1);
  const k = Math.max(1, ...series.map((s) => s.folds.length));
  const step = Math.min(12, (cw * 0.7) / k);
  // Column positions in data units of a [0, IW] x axis, so dots() places them.
  const at = (c: number, i: number) => (c + 0.5) * cw + (i - (k - 1) / 2) * step;
  const columns = series.map((s, c) => {
    const points = s.folds.flatMap((v, i) => (Number.isFinite(v) ? [{ x: at(c, i), y: v, title: `Fold ${i + 1}: ${s.label} ${fmt(v)}` }] : []));
    return html`${pooledBar(s, c, cw, [lo, hi])}${dots(points, [0, IW], [lo, hi])}${category(s.label, PAD.l + (c + 0.5) * cw)}`;
  });
  return frame(`${series.map((s) => s.label).join(', ')} per fold (${k} folds), pooled value marked`, html`${columns}${ticks(lo, hi, 'y')}`, 'one dot per fold', yLabel);
}

/**
 * Learners side by side, one column each, and a line per fold joining that fold's figure
 * of every learner: paired folds (the same compounds held out) read as parallel lines when
 * one learner is better on every fold, and as crossing lines when the folds disagree. Each
 * learner's pooled figure is a bar across its column, as in foldSpread.
 */
export function pairedFolds(learners: readonly FoldSeries[], measure: string): Html {
  const [lo, hi] = range(learners.flatMap((l) => [...l.folds, l.pooled ?? NaN]));
  const cw = IW / Math.max(learners.length, 1);
  const k = Math.max(0, ...learners.map((l) => l.folds.length));
  const x = (c: number) => (c + 0.5) * cw;
  const lines = Array.from({ length: k }, (_, i) => {
    // A learner may lack fold i (fewer folds, or none for this figure): no point there.
    const through = learners.flatMap((l, c) => {
      const v = l.folds[i];
      return v !== undefined && Number.isFinite(v) ? [`${sx(x(c), 0, IW)},${sy(v, lo, hi)}`] : [];
    });
    return through.length < 2 ? '' : html`<polyline class="fold" points="${through.join(' ')}" fill="none" stroke="#4a7ab5" stroke-opacity=".6"><title>Fold ${i + 1}</title></polyline>`;
  });
  const marks = learners.map((l, c) => dots(l.folds.flatMap((v, i) => (Number.isFinite(v) ? [{ x: x(c), y: v, title: `Fold ${i + 1}: ${l.label} ${measure} ${fmt(v)}` }] : [])), [0, IW], [lo, hi]));
  const names = learners.map((l, c) => html`${pooledBar(l, c, cw, [lo, hi], `${l.label} ${measure}`)}${category(l.label, PAD.l + x(c))}`);
  return frame(`${measure} per fold of ${learners.length} learners (${k} folds), a line per fold, pooled value marked`, html`${lines}${marks}${names}${ticks(lo, hi, 'y')}`, 'learner', measure);
}
