// A model's cross-validated statistics as triples of its representation ("models
// are honest"), in the terms the OpenTox validation service used.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { OT, RDF as RDFNS, XSD } from '../../rdf/vocab.ts';
import type { ClassificationStats, RegressionStats } from '../ml/metrics.ts';
import { entryAt } from '../table.ts';
import type { TrainedModel } from './model.ts';

const { quad, namedNode, literal } = DataFactory;

const num = (v: number) => literal(Number.isFinite(v) ? String(v) : 'NaN', XSD.double);
const int = (v: number) => literal(String(v), XSD.int);

export function validationQuads(modelUri: string, model: TrainedModel): RDF.Quad[] {
  const v = model.validation;
  if (!v) return [];
  const m = namedNode(modelUri);
  const cv = namedNode(`${modelUri}#crossvalidation`);
  const st = namedNode(`${modelUri}#statistics`);
  const out: RDF.Quad[] = [
    quad(m, OT.crossvalidationInfo, cv),
    quad(cv, OT.numFolds, int(v.folds)),
    quad(cv, OT.randomSeed, int(v.seed)),
    quad(cv, OT.numInstances, int(v.stats.n)),
  ];
  if (model.task === 'classification') {
    const s = v.stats as ClassificationStats;
    out.push(
      quad(cv, OT.classificationStatistics, st),
      quad(st, OT.percentCorrect, num(100 * s.accuracy)),
      quad(st, OT.balancedAccuracy, num(s.balancedAccuracy)),
      quad(st, OT.areaUnderRoc, num(s.auc)),
    );
    s.confusion.forEach((row, a) => row.forEach((count, p) => {
      const cell = namedNode(`${modelUri}#confusion-${a}-${p}`);
      out.push(
        quad(st, OT.confusionMatrix, cell),
        quad(cell, RDFNS.type, OT.confusionMatrixCell),
        quad(cell, OT.confusionMatrixActual, literal(entryAt(model.classes, a, 'class'))),
        quad(cell, OT.confusionMatrixPredicted, literal(entryAt(model.classes, p, 'class'))),
        quad(cell, OT.confusionMatrixValue, int(count)),
      );
    }));
  } else {
    const s = v.stats as RegressionStats;
    out.push(
      quad(cv, OT.regressionStatistics, st),
      quad(st, OT.rSquare, num(s.r2)),
      quad(st, OT.rootMeanSquaredError, num(s.rmse)),
      quad(st, OT.meanAbsoluteError, num(s.mae)),
    );
  }
  return out;
}
