// One structure search as a domain function: the query, a page, optionally the compounds
// of one dataset; answers the hits of that page. Exact search joins the structure index
// (identity) with dataset values (names, CAS numbers) found in the store.
import type { Deps } from '../deps.ts';
import type { Hit } from './engine.ts';
import { catchUpCompounds } from '../compounds/compoundIndex.ts';
import type { Paging } from '../http/paging.ts';
import type { SearchQuery } from './params.ts';

/** Most compounds a name or CAS number is looked up for. */
const VALUE_HITS = 100_000;

export interface RunOptions {
  within?: readonly string[];
  signal?: AbortSignal;
}

/** The hits of one page, and whether more follow (one hit beyond the page is looked for). */
export async function runSearch(deps: Pick<Deps, 'store' | 'search' | 'config' | 'changes'>, query: SearchQuery, paging: Paging, options: RunOptions = {}): Promise<{ hits: Hit[]; hasMore: boolean }> {
  if (paging.limit === 0) return { hits: [], hasMore: false };
  // Compounds other processes wrote are in the index before it is searched.
  await catchUpCompounds(deps);
  const end = paging.offset + paging.limit;
  const scope = { within: options.within, signal: options.signal, limit: end + 1 };
  const reachedMax = paging.max !== undefined && end >= paging.max;
  if (query.mode === 'substructure') {
    // Only this page's hits (and one beyond) are made into URIs; the search goes on from the last page's.
    const hits = await deps.search.substructure(query.kind, query.text, { ...scope, offset: paging.offset });
    return { hits: hits.slice(0, paging.limit), hasMore: hits.length > paging.limit && !reachedMax };
  }
  let hits: Hit[];
  if (query.mode === 'similarity') hits = await deps.search.similar(query.smiles, query.threshold, scope);
  else hits = await exactHits(deps, query.text, options.within);
  return { hits: hits.slice(paging.offset, end), hasMore: hits.length > end && !reachedMax };
}

async function exactHits(deps: Pick<Deps, 'store' | 'search'>, text: string, within: readonly string[] | undefined): Promise<Hit[]> {
  let uris: string[] = [];
  try {
    uris = await deps.search.exact(text, { within });
  } catch (e) {
    // Not a structure: it can still be a name or a CAS number.
    if ((e as { status?: number }).status !== 400) throw e;
  }
  const keep = within ? new Set(within) : undefined;
  const seen = new Set(uris);
  const [v1, v2, v3, v4, v5] = spellings(text.trim());
  for (const row of await deps.store.select('search-compounds-by-value', { v1, v2, v3, v4, v5, limit: { raw: VALUE_HITS } })) {
    const uri = row.compound?.value;
    if (uri && !seen.has(uri) && (!keep || keep.has(uri))) {
      seen.add(uri);
      uris.push(uri);
    }
  }
  return uris.map((uri) => ({ uri }));
}

/**
 * The spellings a name is looked up in: as given, lower case, upper case, first letter
 * capitalised, every word capitalised ("acetic acid" finds "Acetic acid" and "Acetic Acid").
 */
export function spellings(text: string): [string, string, string, string, string] {
  const lower = text.toLowerCase();
  const first = lower.charAt(0).toUpperCase() + lower.slice(1);
  const words = lower.replace(/(^|[\s(-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
  return [text, lower, text.toUpperCase(), first, words];
}
