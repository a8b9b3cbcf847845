// A read-only copy of a store directory for offline checks (npm run check-store): the
// latest snapshot plus the journal replayed into memory, nothing written, no lock taken.
import * as ox from 'oxigraph';
import { currentPlan } from './layout.ts';
import { replay } from './records.ts';
import { QueryFiles } from '../queries.ts';

export interface StoreCopy {
  /** Rows of query file queries/<name>.rq, each variable as its term's value. */
  select(name: string): Array<Record<string, string>>;
  /** Journal records of the last segment that were torn (a write cut short by a crash). */
  torn: boolean;
}

export function loadStoreCopy(dir: string): StoreCopy {
  const store = new ox.Store();
  const result = replay(store, currentPlan(dir));
  const queries = new QueryFiles();
  return {
    torn: result.lastTorn,
    select(name) {
      const rows = store.query(queries.text(name)) as Array<Map<string, { value: string }>>;
      return rows.map((row) => Object.fromEntries([...row].map(([k, v]) => [k, v.value])));
    },
  };
}
