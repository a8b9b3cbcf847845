// Figures of a model or validation as a person reads them: a table of the statistics,
// the confusion matrix, and ROC points computed from held-out scores.
import { OT } from '../rdf/vocab.ts';
import type { Graph } from './graph.ts';
import { html, type Html } from './html.ts';
import { fmt } from './plots.ts';

const STATS: ReadonlyArray<[keyof typeof OT, string]> = [
  ['numInstances', 'Instances'], ['numUnpredicted', 'Not predicted'], ['percentCorrect', 'Percent correct'], ['balancedAccuracy', 'Balanced accuracy'],
  ['truePositiveRate', 'Sensitivity'], ['trueNegativeRate', 'Specificity'], ['matthewsCorrelationCoefficient', 'MCC'], ['areaUnderRoc', 'AUC'],
  ['rSquare', 'R²'], ['qSquare', 'Q²'], ['rootMeanSquaredError', 'RMSE'], ['meanAbsoluteError', 'MAE'],
];

export function statisticsRows(g: Graph, node: string): Html {
  return html`${STATS.map(([p, label]) => {
    const v = g.value(node, OT[p] as typeof OT.rSquare);
    return v === undefined ? '' : html`<tr><th scope="row">${label}</th><td class="num">${fmt(Number(v))}</td></tr>`;
  })}`;
}

export interface Cell { actual: string; predicted: string; a: number; p: number; count: number }

export function confusionCells(g: Graph, statistics: string): Cell[] {
  return g.values(statistics, OT.confusionMatrix).map((c) => {
    const [, a, p] = /confusion-(\d+)-(\d+)$/.exec(c) ?? ['', '0', '0'];
    return { actual: g.value(c, OT.confusionMatrixActual) ?? '', predicted: g.value(c, OT.confusionMatrixPredicted) ?? '', a: Number(a), p: Number(p), count: Number(g.value(c, OT.confusionMatrixValue)) };
  });
}

export function confusionTable(cells: Cell[]): Html {
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
export function rocPoint(cells: Cell[]): { fpr: number; tpr: number; label: string } | undefined {
  const n = Math.max(...cells.map((c) => c.a)) + 1;
  if (n !== 2) return undefined;
  const count = (a: number, p: number) => cells.find((c) => c.a === a && c.p === p)?.count ?? 0;
  const pos = count(1, 0) + count(1, 1);
  const neg = count(0, 0) + count(0, 1);
  if (!pos || !neg) return undefined;
  return { tpr: count(1, 1) / pos, fpr: count(0, 1) / neg, label: `cross-validated, positive class ${cells.find((c) => c.a === 1)?.actual}` };
}

/**
 * The ROC curve of scores for the positive class: one point per distinct score, taken from
 * the highest down, so tied scores move both rates at once (a diagonal step).
 */
export function rocCurve(positive: readonly boolean[], score: readonly number[]): Array<{ fpr: number; tpr: number }> {
  const P = positive.filter(Boolean).length;
  const N = positive.length - P;
  if (!P || !N) return [];
  // order holds positions of score and positive, which are parallel.
  const order = score.map((_, i) => i).sort((a, b) => score[b]! - score[a]!);
  const out = [{ fpr: 0, tpr: 0 }];
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j < order.length && score[order[j]!] === score[order[i]!]) {
      if (positive[order[j]!]) tp++;
      else fp++;
      j++;
    }
    out.push({ fpr: fp / N, tpr: tp / P });
    i = j;
  }
  return out;
}
