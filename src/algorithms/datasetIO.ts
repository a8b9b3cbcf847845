// How algorithms reach this service's datasets. dataset_uri (SPEC §2.1) is read once per
// request into a DatasetRef that the checks, the job and the dataset loader all take, and
// checked before any task exists (SPEC §2.1: "400 incorrect dataset URI"): http(s), a
// dataset of this service that exists, or one elsewhere that the outbound policy admits
// (DESIGN "Outbound requests and trust"). AlgorithmIO over this service's dataset,
// feature, compound and model resources is built once at boot (boot.ts) and handed to
// whoever runs algorithms through deps.io.
import type { Config } from '../config.ts';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { BadRequest, HttpError } from '../errors.ts';
import { readUriParam } from '../http/uriParam.ts';
import { admitRemote } from '../http/outbound/policy.ts';
import { isDataset } from '../datasets/datasetLayout.ts';
import { loadDataset } from '../datasets/datasetLoad.ts';
import { createDataset } from '../datasets/datasets.ts';
import { ensureFeatures } from '../features/features.ts';
import { createModel, newModelUri } from '../models/models.ts';
import { publishResult } from '../datasets/datasetRemote.ts';
import { fetchRemote } from '../http/remote.ts';
import { isBudgetSpent } from '../http/outbound/budget.ts';
import { threeDMolfiles } from '../compounds/conformerGeneration.ts';
import { addConformers } from '../compounds/conformers.ts';
import { compoundNumber } from '../compounds/compoundIndex.ts';
import { ensureCompounds } from '../compounds/compounds.ts';
import { initChem, parseStructure, type ParsedStructure } from '../chem/index.ts';
import { redact } from '../util/redact.ts';
import { ERR, ownTerms } from '../rdf/vocab.ts';
import type { Table } from './table.ts';
import { MODEL_KIND } from './apply.ts';
import type { FeatureCalculation } from './learning/representation.ts';
import { algorithmById, algorithmUri, HASH, storedValues } from './catalogue.ts';
import { withDefaults } from './params.ts';
import { bound } from '../store/api.ts';
import type { AlgorithmIO } from './io.ts';
import type { DatasetRef, LoadedDataset } from '../datasets/loadedDataset.ts';

/** The reference an already normalised http(s) dataset URI stands for. */
export function datasetRef(config: Config, uri: string): DatasetRef {
  const url = new URL(uri);
  const featureUris = [...url.searchParams.getAll('feature_uris[]'), ...url.searchParams.getAll('feature_uris')];
  url.search = '';
  const ref: DatasetRef = { uri, base: url.href, local: url.href.startsWith(uriOf(config, '/dataset/')) };
  if (featureUris.length > 0) ref.featureUris = featureUris;
  return ref;
}

/** A form field naming a dataset, normalised (SPEC §1 rule 2); 400 unless an http(s) URI. */
export function readDatasetRef(config: Config, sent: string, name = 'dataset_uri'): DatasetRef {
  const uri = readUriParam(sent, name);
  // Only http(s) datasets are read (SPEC §2.1: a dataset service's URI).
  if (!/^https?:\/\//i.test(uri)) throw new BadRequest(`${name} must be an http(s) URI of a dataset: ${JSON.stringify(redact(uri).slice(0, 200))}`, { code: ERR.InvalidIRI });
  return datasetRef(config, uri);
}

/**
 * 400 unless the job could read the dataset: a local one exists (and holds
 * prediction_feature when one is named), a remote one passes the outbound policy. Answers a
 * local dataset's prediction_feature column as read for the check (the size limits use it).
 */
export async function admitDataset(deps: Deps, ref: DatasetRef, options: { name?: string; predictionFeature?: string; subjectid?: string } = {}): Promise<LoadedDataset | undefined> {
  const name = options.name ?? 'dataset_uri';
  if (!ref.local) {
    await admitRemote(deps.config, ref.uri, name);
    return undefined;
  }
  if (!(await isDataset(deps, ref.base))) throw new BadRequest(`${name} ${ref.uri} names no dataset of this service`, { code: ERR.InvalidParameter });
  const feature = options.predictionFeature;
  if (!feature) return undefined;
  try {
    // The dataset itself, without the query's feature_uris[]: only prediction_feature is asked for.
    const d = await loadDataset(deps, { uri: ref.base, base: ref.base, local: true }, { subjectid: options.subjectid, featureUris: [feature] });
    if (d.features.some((f) => f.uri === feature)) return d;
  } catch (e) {
    if (!(e instanceof HttpError) || e.status !== 400) throw e;
  }
  throw new BadRequest(`prediction_feature ${feature} is not a feature of dataset ${ref.base}`, { code: ERR.PredictionFeatureNotInDataset });
}

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
  return { ...valuesTable(d), smiles: d.compounds.map((c) => smiles.get(c) ?? '') };
}

/** The table of a loaded dataset without its structures: enough to count and classify values. */
export function valuesTable(d: LoadedDataset): Table {
  return {
    datasetUri: d.uri,
    compounds: d.compounds,
    smiles: d.compounds.map(() => ''),
    columns: d.features.map((f) => ({ uri: f.uri, title: f.title, numeric: f.type === 'numeric', units: f.units, sameAs: f.sameAs, nominal: f.type === 'nominal', acceptValues: f.acceptValues, source: f.source })),
    values: d.values.map((r) => r.map((v) => (v === undefined ? null : v))),
  };
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
  return {
    ownTerms: ownTerms(deps.config.baseUrl),
    algorithmUri: (id) => uriOf(deps.config, `/algorithm/${id}`),
    ref: (uri) => datasetRef(deps.config, uri),
    load: async (dataset, { subjectid, predictionFeature }) => {
      const featureUris = dataset.featureUris && predictionFeature ? [predictionFeature] : undefined;
      return tableOf(deps, await loadDataset(deps, dataset, { subjectid, featureUris }), subjectid);
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
      const molfiles = await threeDMolfiles(deps, id, count, { signal });
      return addConformers(deps, id, molfiles.map((molfile) => ({ molfile, is3D: true })));
    },
    publish: (uri, service, subjectid) => publishResult(deps, uri, service, subjectid),
  };
}
