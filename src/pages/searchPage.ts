// Structure search for a person: a form (SMILES or SMARTS; exact, similarity with a
// threshold, or substructure) and the hits with depictions, SMILES, names where a dataset
// gives one, and similarity. The form's fields are
// translated to the interface's own search parameters, and the page links that search URI.
import { parsePaging } from '../http/paging.ts';
import { URI_LIST } from '../rdf/formats.ts';
import { searchQueryOf, type SearchQuery } from '../search/params.ts';
import { describeQuery, searchReply } from '../search/results.ts';
import { runSearch } from '../search/run.ts';
import { similarityFeatureUri } from '../search/request.ts';
import type { Reply } from '../http/reply.ts';
import { variantText } from './graph.ts';
import { html, link, raw, type Html } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import { DEPICTED_PAGE, depictedPage } from './paging.ts';
import { compoundDepictions } from './depiction.ts';
import { compoundNames } from './compoundNames.ts';
import { structureEditor } from './structureEditor.ts';
import { storedSmiles } from '../compounds/compoundQuads.ts';
import { linkUrl, queryText, type PageInput } from './page.ts';

const MODES = [['exact', 'Exact (SMILES, InChI, name or CAS)'], ['similarity', 'Similarity'], ['substructure', 'Substructure (SMILES)'], ['smarts', 'Substructure (SMARTS)']] as const;
/** Form mode → the search parameter of the interface. */
const PARAM: Record<string, string> = { exact: 'search', similarity: 'similarity', substructure: 'substructure', smarts: 'smarts' };

export function searchForm(input: PageInput, current: { q?: string; mode?: string; threshold?: string }): Html {
  const mode = current.mode ?? 'exact';
  return html`<form class="box" id="search" method="get" action="${input.base}/compound" role="search">
<h2>Search structures</h2>
<label>Query: <input id="search-q" name="q" size="50" required value="${current.q ?? ''}" placeholder="c1ccccc1O"></label>
${structureEditor('search-q', input.base)}
<fieldset><legend>Kind of search</legend>${MODES.map(([value, label]) => html`<label><input type="radio" name="mode" value="${value}"${raw(value === mode ? ' checked' : '')}> ${label}</label>`)}</fieldset>
<label>Similarity threshold (Tanimoto, 0-1]: <input name="threshold" type="number" min="0.01" max="1" step="0.01" value="${current.threshold || '0.8'}"></label>
<button type="submit">Search</button></form>`;
}

/** The search of the form's fields, run like GET /compound?{param}=... would run it. */
async function formSearch(input: PageInput): Promise<{ reply: Reply; resultUri: string; query: SearchQuery }> {
  const q = queryText(input.ctx, 'q');
  const param = PARAM[queryText(input.ctx, 'mode') || 'exact'] ?? 'search';
  const threshold = queryText(input.ctx, 'threshold');
  const query = searchQueryOf({ [param]: q, ...(param === 'similarity' && threshold ? { threshold } : {}) });
  // Hits carry depictions: a page holds fewer of them than a plain list (DEPICTED_PAGE).
  const paging = parsePaging(input.ctx.query, { pageSize: DEPICTED_PAGE, maxPageSize: input.deps.config.maxPageSize });
  const { hits, hasMore } = await runSearch(input.deps, query, paging);
  const resultUri = `${input.base}/compound?${new URLSearchParams({ [param]: q, ...(param === 'similarity' && threshold ? { threshold } : {}) })}`;
  const reply = searchReply({ query, hits, resultUri, similarityFeature: similarityFeatureUri(input.deps) });
  if (hasMore) {
    const next = linkUrl(input);
    next.searchParams.set('page', String(paging.page + 1));
    reply.headers.Link = `<${next.href}>; rel="next"`;
  }
  return { reply, resultUri, query };
}

export async function searchResults(input: PageInput): Promise<string> {
  const fromForm = input.ctx.query.q !== undefined;
  const found = fromForm ? await formSearch(input) : { reply: input.reply, resultUri: linkUrl(input).href, query: searchQueryOf(input.ctx.query) };
  const { reply, resultUri, query } = found;
  const uris = ((await variantText(reply, URI_LIST)) ?? '').split(/\r?\n/).filter(Boolean);
  const csv = ((await variantText(reply, 'text/csv')) ?? '').split(/\r?\n/).slice(1).filter(Boolean);
  const { shown, nav } = depictedPage(linkUrl(input), uris, reply.headers);
  const similarity = new Map(csv.map((l) => [l.slice(0, l.lastIndexOf(',')), l.slice(l.lastIndexOf(',') + 1)]));
  const pictures = await compoundDepictions(input.deps, shown, 120);
  const smiles = await Promise.all(shown.map((u) => storedSmiles(input.deps, u)));
  const names = await compoundNames(input.deps, shown);
  const similar = query.mode === 'similarity';
  const body = html`${searchForm(input, { q: queryText(input.ctx, 'q'), mode: queryText(input.ctx, 'mode'), threshold: queryText(input.ctx, 'threshold') })}
<h2>Hits: ${describeQuery(query)}</h2>
${uris.length === 0 ? html`<p class="no-hits">No compound matches.</p>` : html`<table class="hits"><thead><tr><th>Structure</th><th>Compound</th><th>SMILES</th><th>Name</th>${similar ? html`<th>Tanimoto</th>` : ''}</tr></thead><tbody>
${shown.map((u, i) => html`<tr><td>${pictures[i]}</td><td>${link(u, input.base)}</td><td class="smiles">${smiles[i] ?? ''}</td><td class="name">${names.get(u) ?? ''}</td>${similar ? html`<td class="num">${similarity.get(u) ?? ''}</td>` : ''}</tr>`)}</tbody></table>`}
${nav}`;
  return layout({ title: 'Structure search', base: input.base, body, formats: formatLinks(resultUri, reply.variants.map((v) => v.type)) });
}
