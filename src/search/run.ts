// One structure search as a domain function: the query, a page, optionally the compounds
// of one dataset; answers the hits of that page. Exact search joins the structure index
// (identity) with dataset values (names, CAS numbers) found in the store.
import type { Deps } from '../deps.ts';
import type { Hit } from './engine.ts';
import type { Paging, SearchQuery } from './params.ts';

/** Most compounds a name or CAS number is looked up for. */
const VALUE_HITS = 100_000;

export interface RunOptions {
  within?: readonly string[];
  signal?: AbortSignal;
}

export async function runSearch(deps: Pick<Deps, 'store' | 'search'>, query: SearchQuery, paging: Paging, options: RunOptions = {}): Promise<Hit[]> {
  const end = paging.offset + paging.count;
  if (paging.count === 0) return [];
  const scope = { within: options.within, signal: options.signal, limit: end };
  let hits: Hit[];
  if (query.mode === 'similarity') hits = await deps.search.similar(query.smiles, query.threshold, scope);
  else if (query.mode === 'substructure') hits = await deps.search.substructure(query.kind, query.text, scope);
  else hits = exactHits(deps, query.text, options.within);
  return hits.slice(paging.offset, end);
}

function exactHits(deps: Pick<Deps, 'store' | 'search'>, text: string, within: readonly string[] | undefined): Hit[] {
  let uris: string[] = [];
  try {
    uris = deps.search.exact(text, { within });
  } catch (e) {
    // Not a structure: it can still be a name or a CAS number.
    if ((e as { status?: number }).status !== 400) throw e;
  }
  const keep = within ? new Set(within) : undefined;
  const seen = new Set(uris);
  for (const row of deps.store.select('search-compounds-by-value', { text, limit: { raw: VALUE_HITS } })) {
    const uri = row.compound?.value;
    if (uri && !seen.has(uri) && (!keep || keep.has(uri))) {
      seen.add(uri);
      uris.push(uri);
    }
  }
  return uris.map((uri) => ({ uri }));
}
