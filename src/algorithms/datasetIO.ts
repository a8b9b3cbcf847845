// AlgorithmIO over this service's dataset, feature, compound and model resources
// and the predictor that applies our models at POST /model/{id}.
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { BadRequest, HttpError } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { loadDataset, type LoadedDataset } from '../datasets/datasetLoad.ts';
import { isDataset } from '../datasets/datasetLayout.ts';
import { createDataset } from '../datasets/datasets.ts';
import { ensureFeatures } from '../features/features.ts';
import { createModel, newModelUri } from '../models/models.ts';
import { publishResult } from '../datasets/datasetRemote.ts';
import { fetchRemote } from '../http/remote.ts';
import { isBudgetSpent } from '../http/outbound/budget.ts';
import { admitRemote } from '../http/outbound/policy.ts';
import { threeDMolfiles } from '../compounds/conformerGeneration.ts';
import { addConformers } from '../compounds/conformers.ts';
import { compoundNumber } from '../compounds/compoundIndex.ts';
import { registerPredictor } from '../models/predictors.ts';
import { ensureCompounds } from '../compounds/compounds.ts';
import { initChem, parseStructure, type ParsedStructure } from '../chem/index.ts';
import type { AlgorithmIO } from './io.ts';
import { redact } from '../auth/redact.ts';
import type { Table } from './table.ts';
import { MODEL_KIND, type ModelData } from './apply.ts';
import type { Neighbour, Prediction } from './learning/model.ts';
import { checkComputable } from './learning/chain.ts';
import type { FeatureCalculation } from './learning/representation.ts';
import { algorithmById } from './catalogue.ts';
import { algorithmUri, HASH, storedValues } from './parameterised.ts';
import { withDefaults } from './params.ts';
import { bound } from '../store/api.ts';
import { threadModule } from '../threads/threadModule.ts';

const WORKER = threadModule('./worker.ts', import.meta.url);

/** Compounds per SMILES read. */
const SMILES_PER_READ = 100;

/** SMILES of local compounds, by URI (remote compounds have none: their rows get ''). */
async function smilesOf(deps: Deps, compounds: readonly string[]): Promise<Map<string, string>> {
  const local = [...new Set(compounds.filter((c) => c.startsWith(uriOf(deps.config, '/compound/'))))];
  const out = new Map<string, string>();
  // SMILES_PER_READ a read: about a millisecond each in the embedded store, so other clients are answered between them.
  for (let i = 0; i < local.length; i += SMILES_PER_READ) {
    for (const row of await deps.store.select('compound-smiles', { compounds: { iris: local.slice(i, i + SMILES_PER_READ) } })) out.set(bound(row, 'c'), bound(row, 'smiles'));
  }
  return out;
}

/** SMILES of remote compounds, asked of their services (SPEC §1 rule 8), a few at a time. */
async function remoteSmiles(deps: Deps, uris: readonly string[], subjectid?: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const queue = [...new Set(uris)];
  const worker = async () => {
    for (let uri = queue.shift(); uri; uri = queue.shift()) {
      try {
        const res = await fetchRemote(deps.config, uri, { accept: 'chemical/x-daylight-smiles', subjectid, timeoutMs: 30_000, what: 'the compound' });
        const text = res.status < 300 ? res.body.toString('utf8').trim().split(/\s+/)[0] : '';
        if (text) out.set(uri, text);
      } catch (e) {
        // A compound whose service does not answer (or that the policy refuses) has no
        // structure: its row is skipped. A job past its allowance of requests stops.
        if (isBudgetSpent(e)) throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return out;
}

export async function tableOf(deps: Deps, d: LoadedDataset, subjectid?: string): Promise<Table> {
  const smiles = await smilesOf(deps, d.compounds);
  const remote = d.compounds.filter((c) => c && !smiles.has(c) && !c.startsWith(uriOf(deps.config, '/')));
  for (const [uri, s] of await remoteSmiles(deps, remote, subjectid)) smiles.set(uri, s);
  return {
    datasetUri: d.uri,
    compounds: d.compounds,
    smiles: d.compounds.map((c) => smiles.get(c) ?? ''),
    columns: d.features.map((f) => ({ uri: f.uri, title: f.title, numeric: f.type === 'numeric', units: f.units, sameAs: f.sameAs, nominal: f.type === 'nominal', acceptValues: f.acceptValues, source: f.source })),
    values: d.values.map((r) => r.map((v) => (v === undefined ? null : v))),
  };
}

/**
 * Neighbours separated by "; ", each as compound URI, Tanimoto or feature similarity and
 * measured value separated by spaces (no line breaks: CSV stays one line per compound).
 */
function neighboursText(neighbours: readonly Neighbour[]): string {
  return neighbours.map((n) => `${n.compound} ${Number(n.similarity.toFixed(4))} ${n.measured}`).join('; ');
}

/** The descriptor algorithm and parameters behind an ot:hasSource URI of this service. */
async function featureCalculation(deps: Deps, source: string): Promise<FeatureCalculation | undefined> {
  const prefix = algorithmUri(deps, '');
  if (!source.startsWith(prefix)) return undefined;
  const [id, hash, ...rest] = source.slice(prefix.length).split('/');
  const def = algorithmById(id!); // split gives at least one part
  if (!def?.perRow || rest.length > 0 || (hash !== undefined && !HASH.test(hash))) return undefined;
  if (hash !== undefined && !(await deps.store.hasGraph(source))) return undefined;
  const params = withDefaults(def.params, hash === undefined ? {} : await storedValues(deps, def, source));
  return { algorithm: def.id, algorithmUri: source, params };
}

export function algorithmIO(deps: Deps): AlgorithmIO {
  registerPredictor(MODEL_KIND, async (_deps, input) => {
    const { model, predicted } = input.data as ModelData;
    const table = await tableOf(deps, input.dataset, input.subjectid);
    checkComputable(model, table, input.model.uri);
    const predictions = await deps.tasks.runInWorker<Prediction[]>(WORKER, 'predictInWorker', { model, table }, { signal: input.signal });
    const order = input.model.predictedVariables;
    const warnings: string[] = [];
    const values = predictions.map((p, i) => {
      if (p.value === null) warnings.push(`no prediction for ${input.dataset.compounds[i]}: ${p.reason ?? `no structure or values to build its ${model.representation.kind} vector`}`);
      return order.map((f) => {
        if (f === predicted.value) return p.value;
        if (f === predicted.confidence) return p.confidence ?? null;
        if (f === predicted.inDomain) return p.inDomain === undefined ? null : String(p.inDomain);
        if (f === predicted.neighbours) return p.neighbours ? neighboursText(p.neighbours) : null;
        return null;
      });
    });
    return { values, warnings };
  });
  return {
    load: async (datasetUri, { subjectid, predictionFeature }) => {
      const restricted = [...new URL(datasetUri).searchParams.keys()].some((k) => k.startsWith('feature_uris'));
      const featureUris = restricted && predictionFeature ? [predictionFeature] : undefined;
      return tableOf(deps, await loadDataset(deps, datasetUri, { subjectid, featureUris }), subjectid);
    },
    check: async (datasetUri, predictionFeature, subjectid) => {
      // Only http(s) datasets are read (SPEC §2.1: a dataset service's URI); anything else
      // would fail inside the task.
      if (!/^https?:\/\//i.test(datasetUri)) throw new BadRequest(`dataset_uri must be an http(s) URI of a dataset: ${JSON.stringify(redact(datasetUri).slice(0, 200))}`, { code: ERR.InvalidIRI });
      const base = new URL(datasetUri);
      base.search = '';
      const local = base.href.startsWith(uriOf(deps.config, '/dataset/'));
      if (local && !(await isDataset(deps, base.href))) throw new BadRequest(`dataset_uri ${datasetUri} names no dataset of this service`, { code: ERR.InvalidParameter });
      // A dataset elsewhere is checked against the outbound policy before any task exists.
      if (!local) await admitRemote(deps.config, datasetUri, 'dataset_uri');
      if (!predictionFeature || !local) return;
      try {
        const d = await loadDataset(deps, base.href, { subjectid, featureUris: [predictionFeature] });
        if (d.features.some((f) => f.uri === predictionFeature)) return;
      } catch (e) {
        if (!(e instanceof HttpError) || e.status !== 400) throw e;
      }
      throw new BadRequest(`prediction_feature ${predictionFeature} is not a feature of dataset ${base.href}`, { code: ERR.PredictionFeatureNotInDataset });
    },
    features: (specs) => ensureFeatures(deps, specs.map((s) => ({ ...s }))),
    compounds: async (smiles) => {
      await initChem();
      const parsed = smiles.map((s): ParsedStructure | undefined => {
        try {
          return parseStructure(s, 'smiles');
        } catch {
          return undefined;
        }
      });
      const good = parsed.filter((p): p is ParsedStructure => p !== undefined);
      const uris = await ensureCompounds(deps, good);
      let k = 0;
      return parsed.map((p) => (p ? uris[k++] : undefined));
    },
    // Titles name the input dataset: without the user-info or token its URI may carry.
    dataset: (r) => createDataset(deps, { ...r, title: redact(r.title), values: r.values, warnings: r.warnings }),
    featureCalculation: (source) => featureCalculation(deps, source),
    newModelUri: () => newModelUri(deps),
    model: (m) => createModel(deps, { ...m, kind: MODEL_KIND }),
    annotateModel: (uri, quads) => deps.store.addToGraph(uri, quads),
    conformers: async (compoundUri, count, signal) => {
      const id = compoundUri.startsWith(uriOf(deps.config, '/compound/')) ? compoundNumber(compoundUri) : undefined;
      if (id === undefined) throw new BadRequest(`${compoundUri} is not a compound of this service: conformers are stored with their compounds`);
      const molfiles = await threeDMolfiles(deps, id, count, undefined, signal);
      return addConformers(deps, id, molfiles.map((molfile) => ({ molfile, is3D: true })));
    },
    publish: (uri, service, subjectid) => publishResult(deps, uri, service, subjectid),
  };
}
