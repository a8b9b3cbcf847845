// What a model learns from: Morgan fingerprints or RDKit descriptors of each structure,
// or numeric features of the dataset. Stored with the model so that prediction builds
// the same vectors.
import { MACCS_BITS, morganFingerprints } from '../../chem/morgan.ts';
import { TOXICOPHORES } from '../../chem/toxicophores.ts';
import { computeDescriptors, DESCRIPTORS } from '../../chem/descriptors.ts';
import { entryAt, numberOf, numericColumns, type Table } from '../table.ts';
import type { ParamValues } from '../params.ts';

/** How one independent feature is computed from a structure. */
export interface FeatureCalculation {
  /** Local id of a per-row descriptor algorithm of this service. */
  algorithm: string;
  /** The (parameterised) algorithm URI the feature has as ot:hasSource. */
  algorithmUri: string;
  params: ParamValues;
}

export type Representation =
  | { kind: 'morgan'; radius: number; bits: number; /** MACCS keys after the Morgan bits (chem/morgan.ts). */ maccs?: boolean; /** Toxicophore bits last (chem/toxicophores.ts). */ toxicophores?: boolean }
  | { kind: 'descriptors'; names: string[] }
  | {
    kind: 'features';
    uris: string[];
    titles: string[];
    /** How each feature is computed for a dataset that lacks it (null: it cannot be). */
    calculations?: Array<FeatureCalculation | null>;
  };

export const REPRESENTATIONS = ['auto', 'morgan', 'descriptors', 'features'] as const;

/**
 * The representation a run asks for; `auto` takes the dataset's own numeric features when
 * it has any besides the target, and `fallback` (fingerprints or descriptors) otherwise.
 */
export function chooseRepresentation(table: Table, target: number | undefined, asked: string, fallback: 'morgan' | 'descriptors', morgan: { radius: number; bits: number; maccs?: boolean; toxicophores?: boolean }): Representation {
  const numeric = numericColumns(table, target === undefined ? [] : [target]);
  const kind = asked === 'auto' ? (numeric.length > 0 ? 'features' : fallback) : asked;
  if (kind === 'features') return { kind, uris: numeric.map((j) => entryAt(table.columns, j, 'column').uri), titles: numeric.map((j) => entryAt(table.columns, j, 'column').title) };
  if (kind === 'descriptors') return { kind, names: DESCRIPTORS.map((d) => d.name) };
  return { kind: 'morgan', radius: morgan.radius, bits: morgan.bits, ...(morgan.maccs ? { maccs: true } : {}), ...(morgan.toxicophores ? { toxicophores: true } : {}) };
}

/**
 * Per position of the vector, how many draws it counts as when a forest picks the
 * candidates of a split: `toxicophoreWeight` for each toxicophore bit, 1 for the others;
 * undefined without toxicophores. Some 40 alerts among 2,215 bits would otherwise be
 * tried at few splits (docs/models.md#quality).
 */
export function drawWeights(rep: Representation, toxicophoreWeight: number): number[] | undefined {
  if (rep.kind !== 'morgan' || !rep.toxicophores) return undefined;
  const keys = rep.bits + (rep.maccs ? MACCS_BITS : 0);
  return [...Array<number>(keys).fill(1), ...Array<number>(TOXICOPHORES.length).fill(toxicophoreWeight)];
}

/** One vector per row; undefined where it cannot be built (unparsable structure). */
export async function vectors(table: Table, rep: Representation): Promise<Array<number[] | undefined>> {
  if (rep.kind === 'morgan') return morganFingerprints(table.smiles, rep);
  if (rep.kind === 'descriptors') {
    const selected = DESCRIPTORS.filter((d) => rep.names.includes(d.name));
    const rows = await computeDescriptors(table.smiles, selected);
    return rows.map((r) => (r.every((v) => v !== null) ? (r as number[]) : undefined));
  }
  const cols = rep.uris.map((u) => table.columns.findIndex((c) => c.uri === u));
  // A feature missing from a prediction dataset gives NaN: no prediction for that row.
  return table.values.map((row) => cols.map((j) => (j < 0 ? NaN : numberOf(row[j]!))));
}
