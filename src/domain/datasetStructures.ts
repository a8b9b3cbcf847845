import type { Deps } from '../deps.ts';
import type { InputRow } from '../datasets/table.ts';

export async function structuresToCompounds(_deps: Deps, structures: ReadonlyArray<NonNullable<InputRow['structure']>>, _signal?: AbortSignal, _progress?: (p: number) => void): Promise<Array<string | { error: string }>> {
  return structures.map(() => ({ error: 'chemistry pending merge' }));
}
