// The catalogue: every algorithm the service offers, by id (DESIGN: src/algorithms), and
// their parameterised URIs (SPEC §2.1 rules 1-6). A run with specific parameters uses
// a child URI {algorithm}/{hash} whose graph holds the exact values; the hash is over the
// complete set of values (defaults included), so an identical set reuses its URI (rule 4).
import { createHash } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { bound } from '../store/api.ts';
import { algorithmQuads } from './describe.ts';
import { formatParam, parseParam, type ParamValues } from './params.ts';
import type { AlgorithmDef } from './types.ts';
import { physchem } from './descriptors/physchem.ts';
import { oclProperties } from './descriptors/oclProperties.ts';
import { smartsMatch } from './descriptors/smartsMatch.ts';
import { singleDescriptors } from './descriptors/single.ts';
import { frequentMining, supervisedMining } from './mining/frequent.ts';
import { knn, randomForest, linearRegression, logisticRegression } from './learning/algorithms.ts';
import { applicabilityDomain } from './learning/domain.ts';
import { varianceFilter, correlationFilter, topK } from './preprocessing/featureSelection.ts';
import { standardisation, removeDuplicates, removeMissing } from './preprocessing/cleanup.ts';
import { normalization } from './preprocessing/normalization.ts';
import { generation3d } from './preprocessing/generation3d.ts';

export const ALGORITHMS: readonly AlgorithmDef[] = [
  physchem, oclProperties, smartsMatch, ...singleDescriptors,
  frequentMining, supervisedMining,
  knn, randomForest, linearRegression, logisticRegression, applicabilityDomain,
  varianceFilter, correlationFilter, topK,
  standardisation, removeDuplicates, removeMissing, normalization, generation3d,
];

const byId = new Map(ALGORITHMS.map((a) => [a.id, a]));

export function algorithmById(id: string): AlgorithmDef | undefined {
  return byId.get(id);
}

export const HASH = /^[0-9a-f]{16}$/;

export const algorithmUri = (deps: Pick<Deps, 'config'>, id: string): string => uriOf(deps.config, `/algorithm/${id}`);

export function parameterHash(values: ParamValues): string {
  const canonical = Object.keys(values).sort().map((k) => `${k}=${formatParam(values[k]!)}`).join('\n');
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** The child URI for `values`, created (described in the store) on first use. */
export async function ensureParameterised(deps: Deps, def: AlgorithmDef, values: ParamValues): Promise<string> {
  const parent = algorithmUri(deps, def.id);
  const uri = `${parent}/${parameterHash(values)}`;
  if (!(await deps.store.hasGraph(uri))) {
    await deps.store.replaceGraph(uri, algorithmQuads(def, uri, { values, parent, date: new Date().toISOString() }));
  }
  return uri;
}

/** The exact values a parameterised algorithm holds (rule 5: a run repeats them). */
export async function storedValues(deps: Deps, def: AlgorithmDef, uri: string): Promise<ParamValues> {
  const out: ParamValues = {};
  for (const row of await deps.store.select('algorithm-param-values', { algorithm: { iris: [uri] } })) {
    const name = bound(row, 'name');
    const value = bound(row, 'value');
    const p = def.params.find((x) => x.name === name);
    if (!p || value === '') continue;
    out[p.name] = parseParam(p, p.type === 'list' ? value.split('\n') : [value]);
  }
  return out;
}
