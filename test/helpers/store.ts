// What tests read of the store beside the interface: its size and a dump, to check that a
// refused request changed nothing. The embedded engine answers from its thread; a SPARQL store
// is asked over the protocol (every graph, the store's own system graphs included).
import type { Store } from '../../src/store/api.ts';
import { TripleStore } from '../../src/store/embedded/store.ts';
import { SparqlStore } from '../../src/store/sparql/store.ts';

function sparqlOf(store: Store): SparqlStore {
  if (store instanceof SparqlStore) return store;
  throw new Error(`no test access to a ${store.kind} store`);
}

/** Number of quads in the store. */
export async function storeSize(store: Store): Promise<number> {
  if (store instanceof TripleStore) return store.size();
  const rows = await sparqlOf(store).protocol.select('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }');
  return Number(rows[0]?.n?.value ?? 0);
}

/** Every quad of the store as sorted N-Quads-like lines (for equality before and after). */
export async function storeDump(store: Store): Promise<string> {
  if (store instanceof TripleStore) return store.dumpNQuads();
  const rows = await sparqlOf(store).protocol.select('SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }');
  return rows.map((r) => `${r.s!.value} ${r.p!.value} ${r.o!.value} ${r.g!.value}`).sort().join('\n');
}
