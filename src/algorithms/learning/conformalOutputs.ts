// The conformal outputs of a model as features of their own (the interval's bounds, or a
// p-value per class and the prediction set), listed in the model's RDF as
// ot:conformalVariables, apart from ot:predictedVariables, which stay the point prediction
// (docs/models.md): a generic client reading the predicted variables is not handed bounds.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { OT, XSD } from '../../rdf/vocab.ts';
import type { AlgorithmIO, FeatureRequest } from '../io.ts';
import { entryAt } from '../table.ts';
import type { Prediction, TrainedModel } from './model.ts';
import { DIFFICULTY_OFFSET, setText } from './conformal.ts';

const { quad, namedNode, literal } = DataFactory;

/** The features the conformal region fills, as stored with the model (ModelData). */
export interface ConformalOutputs {
  lower?: string;
  upper?: string;
  /** One feature per class, in the model's class order. */
  pValues?: string[];
  set?: string;
}

/** Nonconformity measures, as the model's RDF names them. */
const MEASURE = {
  regression: 'absolute residual |y - prediction|',
  normalised: `absolute residual |y - prediction| / (difficulty + ${DIFFICULTY_OFFSET}), the learner's difficulty (kNN: 1 - mean similarity of the neighbours)`,
  classification: '1 - predicted probability of the class',
};

/** Creates the model's conformal features (none for a model without calibration). */
export async function conformalFeatures(io: AlgorithmIO, model: TrainedModel, modelUri: string, title: string): Promise<ConformalOutputs | undefined> {
  if (!model.calibration) return undefined;
  if (model.task === 'regression') {
    const [lower, upper] = await io.features([
      { title: `${title}: lower bound of the conformal prediction interval`, type: 'numeric', source: modelUri },
      { title: `${title}: upper bound of the conformal prediction interval`, type: 'numeric', source: modelUri },
    ]);
    return { lower: lower!, upper: upper! }; // io.features answers one URI per request
  }
  const specs: FeatureRequest[] = model.classes.map((c) => ({ title: `${title}: conformal p-value of class ${c}`, type: 'numeric', source: modelUri }));
  specs.push({ title: `${title}: conformal prediction set (classes whose p-value exceeds 1 - confidence level)`, type: 'string', source: modelUri });
  const uris = await io.features(specs);
  return { pValues: uris.slice(0, -1), set: entryAt(uris, uris.length - 1, 'feature URI') };
}

/** Features in the order a prediction dataset carries them. */
export const conformalUris = (o: ConformalOutputs | undefined): string[] => (o ? [o.lower, o.upper, ...(o.pValues ?? []), o.set].filter((u): u is string => u !== undefined) : []);

/** The model's conformal outputs and how they are calibrated, as triples of its graph. */
export function conformalQuads(modelUri: string, model: TrainedModel, o: ConformalOutputs | undefined): RDF.Quad[] {
  const cal = model.calibration;
  if (!o || !cal) return [];
  const m = namedNode(modelUri);
  const c = namedNode(`${modelUri}#conformal`);
  const size = cal.residuals?.length ?? (cal.byClass ?? []).reduce((s, v) => s + v.length, 0);
  const out: RDF.Quad[] = [
    ...conformalUris(o).map((f) => quad(m, OT.conformalVariables, namedNode(f))),
    quad(m, OT.conformalPredictor, c),
    quad(c, OT.conformalMethod, literal(cal.method)),
    quad(c, OT.nonconformityMeasure, literal(model.task === 'classification' ? MEASURE.classification : cal.normalised ? MEASURE.normalised : MEASURE.regression)),
    quad(c, OT.mondrian, literal(String(model.task === 'classification'), XSD.boolean)),
    quad(c, OT.numFolds, literal(String(cal.folds), XSD.int)),
    quad(c, OT.calibrationSize, literal(String(size), XSD.int)),
  ];
  if (o.lower) out.push(quad(c, OT.lowerBoundVariable, namedNode(o.lower)));
  if (o.upper) out.push(quad(c, OT.upperBoundVariable, namedNode(o.upper)));
  o.pValues?.forEach((f, i) => out.push(quad(c, OT.pValueVariable, namedNode(f)), quad(namedNode(f), OT.pValueClass, literal(entryAt(model.classes, i, 'class')))));
  if (o.set) out.push(quad(c, OT.predictionSetVariable, namedNode(o.set)));
  return out;
}

/**
 * A prediction's values of the conformal features, in conformalUris order; an unbounded
 * interval (too few calibration compounds for the level) and a missing prediction are null.
 */
export function conformalCells(o: ConformalOutputs | undefined, p: Prediction): Array<number | string | null> {
  if (!o) return [];
  const finite = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : null);
  if (o.lower) return [finite(p.lower), finite(p.upper)];
  return [...(o.pValues ?? []).map((_, c) => p.pValues?.[c] ?? null), p.predictionSet ? setText(p.predictionSet) : null];
}
