// GET /model/{id} as application/onnx: the stored model as an ONNX file whose input X is
// the model's vector ([N, F] doubles, in the order the model reads them: its independent
// variables, or the fingerprint bits or descriptors it computes itself) and whose outputs
// are the predicted class and probabilities, or the predicted value. A model whose
// computation has no exact ONNX form answers 406 saying why.
import type { Deps } from '../../deps.ts';
import { NotAcceptable } from '../../errors.ts';
import { MODEL_KIND, type ModelData } from '../../algorithms/apply.ts';
import type { Forest } from '../../algorithms/ml/forest.ts';
import type { KnnModel } from '../../algorithms/ml/knn.ts';
import type { LogisticModel } from '../../algorithms/ml/logistic.ts';
import { DESCRIPTORS } from '../../chem/descriptors.ts';
import { MACCS_BITS } from '../../chem/morgan.ts';
import { TOXICOPHORES } from '../../chem/toxicophores.ts';
import type { Representation } from '../../algorithms/learning/representation.ts';
import type { TrainedModel } from '../../algorithms/learning/model.ts';
import { readModel } from '../models.ts';
import { forestGraph, INPUT, linearGraph, logisticGraph, ML, type GraphParts } from './onnxGraphs.ts';
import { knnGraph } from './onnxKnn.ts';
import { ELEM, encodeModel, valueInfo } from './onnxProto.ts';
import { serviceSoftware } from './software.ts';

export const ONNX = 'application/onnx';

/** What position j of the input vector holds, one entry per position. */
export function inputColumns(rep: Representation): Array<{ name: string; uri?: string }> {
  if (rep.kind === 'features') return rep.uris.map((uri, j) => ({ name: rep.titles[j] ?? uri, uri }));
  if (rep.kind === 'descriptors') return DESCRIPTORS.filter((d) => rep.names.includes(d.name)).map((d) => ({ name: `${d.name} (${d.title}, RDKit)` }));
  const bits = Array.from({ length: rep.bits }, (_, j) => ({ name: `bit ${j} of the Morgan fingerprint (RDKit, radius ${rep.radius}, ${rep.bits} bits)` }));
  const maccs = rep.maccs ? Array.from({ length: MACCS_BITS }, (_, j) => ({ name: `MACCS key ${j} (RDKit)` })) : [];
  const alerts = rep.toxicophores ? TOXICOPHORES.map((t) => ({ name: `toxicophore ${t.name}: 1 when SMARTS ${t.smarts} matches (RDKit)` })) : [];
  return [...bits, ...maccs, ...alerts];
}

function refuse(uri: string, why: string): never {
  throw new NotAcceptable(`model ${uri} cannot be exported as ONNX: ${why}`, { details: 'Its RDF (Accept: text/turtle, application/rdf+xml...) describes it; POST /model/{id} predicts with it.' });
}

function graphOf(uri: string, m: TrainedModel, inputs: number): GraphParts {
  if (m.task === 'domain') refuse(uri, 'it is an applicability-domain model, which predicts a distance to its training set rather than an endpoint; only models of an endpoint (random forest, logistic regression, MLR, kNN) are exported');
  if (m.learner === 'randomForest') return forestGraph(m.state as Forest, m.classes);
  if (m.learner === 'logisticRegression') return logisticGraph(m.state as LogisticModel, m.classes);
  if (m.learner === 'linearRegression') return linearGraph((m.state as { weights: number[][] }).weights, inputs);
  if (m.learner === 'knn') {
    const knn = m.state as KnnModel;
    // The Euclidean form broadcasts N x M x F differences: past this it would not fit a runtime's memory.
    if (!knn.binary && knn.rows.length * inputs > 5_000_000) refuse(uri, `a kNN model on ${knn.rows.length} training rows of ${inputs} standardised values needs a ${knn.rows.length} x ${inputs} difference tensor per query compound in standard ONNX operators`);
    return knnGraph(knn, m.classes, inputs);
  }
  return refuse(uri, `no ONNX form is defined for its learner ${m.learner}`);
}

export async function exportOnnx(deps: Deps, uri: string): Promise<Buffer> {
  const { info, data } = await readModel(deps, uri);
  if (info.kind !== MODEL_KIND) refuse(uri, `it is a model of kind "${info.kind}", not one this service trained`);
  const m = (data as ModelData).model;
  const columns = inputColumns(m.representation);
  const graph = graphOf(uri, m, columns.length);
  const computed = m.representation.kind !== 'features';
  const inputDoc = computed
    ? `the ${m.representation.kind === 'morgan' ? `Morgan fingerprint bits${m.representation.maccs ? ', MACCS keys' : ''}${m.representation.toxicophores ? ', toxicophore bits' : ''}` : 'RDKit descriptors'} the model computes from each structure, in this order: ${columns.length <= 50 ? columns.map((c) => c.name).join('; ') : `${columns[0]!.name} ... ${columns.at(-1)!.name}`}`
    : `values of the model's independent variables, in this order: ${columns.map((c) => `${c.name} <${c.uri}>`).join('; ')}`;
  const software = serviceSoftware();
  return encodeModel({
    ir_version: 8,
    producer_name: software.name,
    producer_version: software.version,
    doc_string: `${info.title} (${uri}). Input X [N, ${columns.length}]: ${inputDoc}.`,
    graph: {
      name: info.title || uri,
      node: graph.node,
      initializer: graph.initializer,
      input: [valueInfo(INPUT, ELEM.DOUBLE, ['N', columns.length], inputDoc)],
      output: graph.output,
    },
    opset_import: [{ domain: '', version: 17 }, { domain: ML, version: 3 }],
    metadata_props: [
      { key: 'model_uri', value: uri },
      { key: 'algorithm', value: info.algorithm },
      { key: 'training_dataset', value: info.trainingDataset },
      { key: 'predicted_feature', value: m.target.uri },
      { key: 'input_representation', value: JSON.stringify(m.representation.kind === 'features' ? { kind: 'features', uris: m.representation.uris } : m.representation) },
      { key: 'input_features', value: JSON.stringify(columns.map((c) => c.uri ?? c.name)) },
      ...(m.classes.length ? [{ key: 'classes', value: JSON.stringify(m.classes) }] : []),
    ],
  });
}
