// The validation resource (/validation/{id}): stored as one named graph, listed with
// filters, served as RDF, and its held-out predictions as CSV (one row per compound).
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { NotFound } from '../errors.ts';
import { bound } from '../store/api.ts';
import type { Paging } from '../http/paging.ts';
import { mintUri } from '../ids/mint.ts';
import { OT, RDF as RDFNS, ownTerms } from '../rdf/vocab.ts';
import { csvField } from '../rdf/csvCell.ts';
import { checkIri } from '../store/binder.ts';
import type { HeldOut, ValidationResult } from './validation.ts';
import { validationQuads } from './validationGraph.ts';
import { readablePage } from '../auth/readAccess.ts';
import { setText } from '../algorithms/learning/conformal.ts';

const { namedNode } = DataFactory;

export async function createValidation(deps: Deps, result: ValidationResult): Promise<string> {
  const uri = await mintUri(deps, 'validation');
  const quads = validationQuads(uri, result, new Date().toISOString());
  if (result.targetMatch) quads.push(DataFactory.quad(namedNode(uri), ownTerms(deps.config.baseUrl).targetMatch, DataFactory.literal(result.targetMatch)));
  await deps.store.replaceGraph(uri, quads);
  return uri;
}

export async function validationGraph(deps: Deps, uri: string): Promise<RDF.Quad[]> {
  if ((await deps.store.match(namedNode(uri), RDFNS.type, OT.Validation, uri)).length === 0) throw new NotFound(`validation ${uri} not found`);
  return deps.store.graph(uri);
}

export async function deleteValidation(deps: Deps, uri: string): Promise<void> {
  await validationGraph(deps, uri);
  await deps.store.dropGraph(uri);
}

export interface ValidationFilter {
  model?: string;
  algorithm?: string;
  dataset?: string;
}

export async function listValidations(deps: Deps, page: Paging, filter: ValidationFilter, keep?: (uri: string) => Promise<boolean>): Promise<{ uris: string[]; more: boolean }> {
  // An unused filter still needs an IRI in its place; its flag switches it off.
  const iri = (v: string | undefined, name: string) => namedNode(v === undefined ? OT.Validation.value : checkIri(v, name));
  const bindings = {
    byModel: filter.model !== undefined, model: iri(filter.model, 'model'),
    byAlgorithm: filter.algorithm !== undefined, algorithm: iri(filter.algorithm, 'algorithm'),
    byDataset: filter.dataset !== undefined, dataset: iri(filter.dataset, 'dataset'),
  };
  return readablePage(page, async (limit, offset) => {
    const rows = await deps.store.select('validation-list', { ...bindings, limit: { raw: limit }, offset: { raw: offset } });
    return rows.map((r) => bound(r, 'v'));
  }, keep);
}

/** A held-out prediction as stored: its values as the store's literals read them. */
export interface PredictionRow extends Omit<HeldOut, 'actual' | 'predicted'> {
  actual: string;
  predicted?: string;
}

/** The graphs of the validations `uris`, in order: the RDF of a validation list. */
export async function validationGraphs(deps: Deps, uris: readonly string[]): Promise<RDF.Quad[]> {
  return (await Promise.all(uris.map((u) => deps.store.graph(u)))).flat();
}

/** An xsd:double's value, INF and -INF (an unbounded interval) included. */
const double = (v: string) => (v === 'INF' ? Infinity : v === '-INF' ? -Infinity : Number(v));

/** The held-out predictions of a validation, in dataset row order. */
export async function predictionRows(deps: Deps, uri: string): Promise<PredictionRow[]> {
  await validationGraph(deps, uri);
  const rows = (await deps.store.select('validation-predictions', { validation: namedNode(uri) })).map((r): PredictionRow => ({
    row: Number(bound(r, 'row')),
    compound: bound(r, 'compound'),
    fold: Number(bound(r, 'fold')),
    actual: bound(r, 'actual'),
    predicted: r.predicted?.value,
    score: r.score ? Number(r.score.value) : undefined,
    confidence: r.confidence ? Number(r.confidence.value) : undefined,
    inDomain: r.inDomain ? r.inDomain.value === 'true' : undefined,
  }));
  const byRow = new Map(rows.map((r) => [r.row, r]));
  for (const c of await deps.store.select('validation-conformal', { validation: namedNode(uri) })) {
    const r = byRow.get(Number(bound(c, 'row')));
    if (!r) continue;
    if (c.lower && c.upper) Object.assign(r, { lower: double(c.lower.value), upper: double(c.upper.value) });
    if (c.class && c.pValue) (r.pValues ??= {})[c.class.value] = Number(c.pValue.value);
    if (c.member) (r.predictionSet ??= []).push(c.member.value);
  }
  // A prediction with p-values and no member has the empty set.
  for (const r of rows) if (r.pValues) r.predictionSet = (r.predictionSet ?? []).sort();
  return rows;
}

const cell = (v: string | number | boolean | undefined): string => (v === undefined ? '' : csvField(String(v)));

/**
 * RFC 4180 CSV: compound, fold (1-based), measured, predicted, score, confidence, in domain;
 * then the conformal region: lower and upper (regression), or p_value_<class> per class and
 * prediction_set written as {class; class} (classification, conformal.ts setText).
 */
export function predictionsCsv(rows: readonly PredictionRow[]): string {
  const intervals = rows.some((r) => r.lower !== undefined);
  const classes = [...new Set(rows.flatMap((r) => Object.keys(r.pValues ?? {})))].sort();
  const head = ['compound', 'fold', 'actual', 'predicted', 'positive_class_score', 'confidence', 'in_applicability_domain',
    ...(intervals ? ['lower', 'upper'] : []), ...classes.map((c) => `p_value_${c}`), ...(classes.length ? ['prediction_set'] : [])];
  const line = (r: PredictionRow) => [
    r.compound, r.fold, r.actual, r.predicted, r.score, r.confidence, r.inDomain,
    ...(intervals ? [r.lower, r.upper] : []), ...classes.map((c) => r.pValues?.[c]), ...(classes.length ? [r.predictionSet && setText(r.predictionSet)] : []),
  ].map(cell).join(',');
  return [head.map(csvField).join(','), ...rows.map(line)].map((l) => l + '\r\n').join('');
}
