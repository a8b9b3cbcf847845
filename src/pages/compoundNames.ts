// Names of compounds for the pages: a dataset value of a feature titled as a name
// (queries/compound-names.rq), where one is stored; compounds keep no name of their own.
import type { Deps } from '../deps.ts';

/** Name by compound URI, for those of `compounds` some dataset names. */
export async function compoundNames(deps: Pick<Deps, 'store'>, compounds: readonly string[]): Promise<Map<string, string>> {
  if (compounds.length === 0) return new Map();
  const rows = await deps.store.select('compound-names', { compounds: { iris: compounds } });
  return new Map(rows.filter((r) => r.compound && r.name).map((r) => [r.compound!.value, r.name!.value]));
}
