// A validation as triples (DESIGN: one named graph per resource), in the terms of the
// OpenTox validation service where it had them (ot:Validation, ot:crossvalidationFold,
// ot:percentCorrect, ot:areaUnderRoc, ot:rSquare, ...) and the few this service adds;
// docs/validation.md lists them. Figures are typed literals: xsd:double, counts xsd:int.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { entryAt } from '../algorithms/table.ts';
import { DC, OT, RDF as RDFNS, XSD } from '../rdf/vocab.ts';
import type { Figures } from './statistics.ts';
import type { HeldOut, ValidationResult } from './validation.ts';
import { conformalFigures, conformalFiguresQuads, conformalPredictionQuads } from './conformalFigures.ts';
import { DEFAULT_CONFIDENCE_LEVEL } from '../algorithms/learning/conformal.ts';

const { quad, namedNode, literal } = DataFactory;

const num = (v: number) => literal(Number.isFinite(v) ? String(v) : 'NaN', XSD.double);
const int = (v: number) => literal(String(v), XSD.int);
const value = (v: string | number) => (typeof v === 'number' ? num(v) : literal(v));

/** Triples of one set of figures on node `node` (`cells` prefixes confusion-matrix cells). */
export function figuresQuads(node: RDF.NamedNode, figures: Figures, classes: readonly string[]): RDF.Quad[] {
  const out = [quad(node, OT.numInstances, int(figures.n)), quad(node, OT.numUnpredicted, int(figures.unpredicted))];
  if (figures.kind === 'regression') {
    out.push(
      quad(node, OT.rSquare, num(figures.r2)),
      quad(node, OT.qSquare, num(figures.q2)),
      quad(node, OT.rootMeanSquaredError, num(figures.rmse)),
      quad(node, OT.meanAbsoluteError, num(figures.mae)),
    );
    return out;
  }
  out.push(
    quad(node, OT.percentCorrect, num(100 * figures.accuracy)),
    quad(node, OT.balancedAccuracy, num(figures.balancedAccuracy)),
    quad(node, OT.truePositiveRate, num(figures.sensitivity)),
    quad(node, OT.trueNegativeRate, num(figures.specificity)),
    quad(node, OT.matthewsCorrelationCoefficient, num(figures.mcc)),
    quad(node, OT.areaUnderRoc, num(figures.auc)),
  );
  figures.confusion.forEach((row, a) => row.forEach((count, p) => {
    const cell = namedNode(`${node.value}-confusion-${a}-${p}`);
    out.push(
      quad(node, OT.confusionMatrix, cell),
      quad(cell, RDFNS.type, OT.confusionMatrixCell),
      quad(cell, OT.confusionMatrixActual, literal(entryAt(classes, a, 'class'))),
      quad(cell, OT.confusionMatrixPredicted, literal(entryAt(classes, p, 'class'))),
      quad(cell, OT.confusionMatrixValue, int(count)),
    );
  }));
  return out;
}

function statistics(subject: RDF.NamedNode, node: RDF.NamedNode, figures: Figures, classes: readonly string[]): RDF.Quad[] {
  const link = figures.kind === 'classification' ? OT.classificationStatistics : OT.regressionStatistics;
  return [quad(subject, link, node), ...figuresQuads(node, figures, classes)];
}

function predictionQuads(v: RDF.NamedNode, h: HeldOut): RDF.Quad[] {
  const p = namedNode(`${v.value}#prediction-${h.row + 1}`);
  const out: RDF.Quad[] = [
    quad(v, OT.prediction, p),
    quad(p, DC.identifier, int(h.row + 1)),
    quad(p, OT.compound, namedNode(h.compound)),
    quad(p, OT.crossvalidationFold, int(h.fold + 1)),
    quad(p, OT.actualValue, value(h.actual)),
  ];
  if (h.predicted !== null) out.push(quad(p, OT.predictedValue, value(h.predicted)));
  if (h.score !== undefined) out.push(quad(p, OT.positiveClassScore, num(h.score)));
  if (h.confidence !== undefined) out.push(quad(p, OT.confidence, num(h.confidence)));
  if (h.inDomain !== undefined) out.push(quad(p, OT.inApplicabilityDomain, literal(String(h.inDomain), XSD.boolean)));
  out.push(...conformalPredictionQuads(p, h));
  return out;
}

export function validationQuads(uri: string, r: ValidationResult, date: string): RDF.Quad[] {
  const v = namedNode(uri);
  const out: RDF.Quad[] = [
    quad(v, RDFNS.type, OT.Validation),
    quad(v, OT.validationType, literal(r.type)),
    quad(v, DC.title, literal(r.type === 'test_set_validation' ? `Validation of ${r.model} on ${r.dataset}` : `${r.type === 'crossvalidation' ? 'Cross-validation' : 'Training/test split'} of ${r.algorithm} on ${r.dataset}`)),
    quad(v, DC.date, literal(date, XSD.dateTime)),
    quad(v, OT.predictionFeature, namedNode(r.predictionFeature)),
    quad(v, r.type === 'test_set_validation' ? OT.testDataset : OT.dataset, namedNode(r.dataset)),
    quad(v, OT.numWithoutClass, int(r.withoutClass)),
    ...statistics(v, namedNode(`${uri}#statistics`), r.figures, r.classes),
  ];
  if (r.type === 'crossvalidation') out.push(quad(v, RDFNS.type, OT.Crossvalidation), quad(v, OT.numFolds, int(r.numFolds!)));
  if (r.algorithm) out.push(quad(v, OT.algorithm, namedNode(r.algorithm)));
  if (r.model) out.push(quad(v, OT.model, namedNode(r.model)));
  if (r.testTargetDataset) out.push(quad(v, OT.testTargetDataset, namedNode(r.testTargetDataset)));
  if (r.seed !== undefined) out.push(quad(v, OT.randomSeed, int(r.seed)));
  if (r.stratified !== undefined) out.push(quad(v, OT.stratified, literal(String(r.stratified), XSD.boolean)));
  if (r.splitRatio !== undefined) out.push(quad(v, OT.splitRatio, num(r.splitRatio)));
  for (const f of r.folds) {
    const fold = namedNode(`${uri}#fold-${f.fold + 1}`);
    out.push(
      quad(v, OT.model, namedNode(f.model)),
      quad(fold, RDFNS.type, OT.Validation),
      quad(fold, OT.crossvalidation, v),
      quad(fold, OT.crossvalidationFold, int(f.fold + 1)),
      quad(fold, OT.model, namedNode(f.model)),
      ...statistics(fold, namedNode(`${uri}#fold-${f.fold + 1}-statistics`), f.figures, r.classes),
    );
  }
  if (r.domain) {
    out.push(
      quad(v, OT.shareInsideDomain, num(r.domain.share)),
      quad(v, OT.insideDomainStatistics, namedNode(`${uri}#inside-statistics`)),
      quad(v, OT.outsideDomainStatistics, namedNode(`${uri}#outside-statistics`)),
      ...figuresQuads(namedNode(`${uri}#inside-statistics`), r.domain.inside, r.classes),
      ...figuresQuads(namedNode(`${uri}#outside-statistics`), r.domain.outside, r.classes),
    );
  }
  for (const h of r.predictions) out.push(...predictionQuads(v, h));
  // Coverage of the held-out conformal regions, pooled and per fold (conformalFigures.ts).
  const level = r.confidenceLevel ?? DEFAULT_CONFIDENCE_LEVEL;
  const pooled = conformalFigures(r.predictions, level);
  if (pooled) out.push(quad(v, OT.confidenceLevel, num(level)), ...conformalFiguresQuads(namedNode(`${uri}#statistics`), pooled));
  for (const f of pooled ? r.folds : []) out.push(...conformalFiguresQuads(namedNode(`${uri}#fold-${f.fold + 1}-statistics`), conformalFigures(r.predictions.filter((h) => h.fold === f.fold), level)));
  return out;
}
