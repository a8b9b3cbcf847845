// How well a validation's conformal predictions hold (docs/models.md): the empirical
// coverage (share of held-out compounds whose measured value lies in its interval, or
// whose class is in its prediction set) at the validation's confidence level, with the
// median interval width or the mean set size; and each held-out compound's interval or
// p-values as triples of its prediction node.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { OT, XSD } from '../rdf/vocab.ts';
import type { HeldOut } from './validation.ts';

const { quad, namedNode, literal } = DataFactory;

// INF is the xsd:double lexical form of an unbounded interval's width.
const num = (v: number) => literal(Number.isNaN(v) ? 'NaN' : v === Infinity ? 'INF' : v === -Infinity ? '-INF' : String(v), XSD.double);

export interface ConformalFigures {
  level: number;
  /** Held-out compounds with an interval or a prediction set. */
  n: number;
  coverage: number;
  /** Regression: median of upper - lower (Infinity when most intervals are unbounded). */
  medianWidth?: number;
  /** Classification: mean number of classes in the prediction set, and the share of empty sets. */
  meanSetSize?: number;
  emptySets?: number;
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The figures of the held-out rows that carry a conformal region; undefined when none does. */
export function conformalFigures(rows: readonly HeldOut[], level: number): ConformalFigures | undefined {
  const intervals = rows.filter((h) => h.lower !== undefined && h.upper !== undefined);
  const sets = rows.filter((h) => h.predictionSet !== undefined);
  if (intervals.length > 0) {
    const covered = intervals.filter((h) => Number(h.actual) >= h.lower! && Number(h.actual) <= h.upper!).length;
    return { level, n: intervals.length, coverage: covered / intervals.length, medianWidth: median(intervals.map((h) => h.upper! - h.lower!)) };
  }
  if (sets.length === 0) return undefined;
  const covered = sets.filter((h) => h.predictionSet!.includes(String(h.actual))).length;
  return {
    level, n: sets.length, coverage: covered / sets.length,
    meanSetSize: sets.reduce((s, h) => s + h.predictionSet!.length, 0) / sets.length,
    emptySets: sets.filter((h) => h.predictionSet!.length === 0).length / sets.length,
  };
}

/** Triples of conformal figures on a statistics node. */
export function conformalFiguresQuads(node: RDF.NamedNode, f: ConformalFigures | undefined): RDF.Quad[] {
  if (!f) return [];
  const out = [quad(node, OT.confidenceLevel, num(f.level)), quad(node, OT.empiricalCoverage, num(f.coverage))];
  if (f.medianWidth !== undefined) out.push(quad(node, OT.medianIntervalWidth, num(f.medianWidth)));
  if (f.meanSetSize !== undefined) out.push(quad(node, OT.meanPredictionSetSize, num(f.meanSetSize)));
  return out;
}

/** A held-out compound's interval, or its p-value per class and prediction set, on its prediction node. */
export function conformalPredictionQuads(p: RDF.NamedNode, h: HeldOut): RDF.Quad[] {
  const out: RDF.Quad[] = [];
  if (h.lower !== undefined) out.push(quad(p, OT.lowerBound, num(h.lower)));
  if (h.upper !== undefined) out.push(quad(p, OT.upperBound, num(h.upper)));
  Object.entries(h.pValues ?? {}).forEach(([label, value], i) => {
    const node = namedNode(`${p.value}-p-${i + 1}`);
    out.push(quad(p, OT.classPValue, node), quad(node, OT.pValueClass, literal(label)), quad(node, OT.pValue, num(value)));
  });
  for (const label of h.predictionSet ?? []) out.push(quad(p, OT.predictionSetMember, literal(label)));
  return out;
}
