// A collection (/compound, /dataset, /feature, /algorithm, /model, /task) for a person:
// its items with titles, the same page/pagesize paging, and the form that belongs to it.
import { DC, OT } from '../rdf/vocab.ts';
import { URI_LIST } from '../rdf/formats.ts';
import { isSearch } from '../search/params.ts';
import { variantText } from './graph.ts';
import { html, link, type Html } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import { depictedPage, pagingLinks } from './paging.ts';
import { compoundDepictions } from './depiction.ts';
import { searchForm, searchResults } from './searchPage.ts';
import { uploadForm } from './uploadForm.ts';
import { linkUrl, type PageInput } from './page.ts';

const TITLES: Record<string, string> = {
  compound: 'Compounds', dataset: 'Datasets', feature: 'Features', algorithm: 'Algorithms', model: 'Models', task: 'Tasks', validation: 'Validations',
};

export async function listPage(input: PageInput): Promise<string> {
  // The route pattern (pages.ts) has ?<kind>, one of the TITLES keys.
  const kind = input.params.kind!;
  const title = TITLES[kind]!;
  if (kind === 'compound' && (isSearch(input.ctx.query) || input.ctx.query.q !== undefined)) return searchResults(input);
  const uris = ((await variantText(input.reply, URI_LIST)) ?? '').split(/\r?\n/).filter(Boolean);
  const g = await input.graph();
  let items: Html;
  let nav = pagingLinks(input.reply.headers);
  let shown: readonly string[] = uris;
  if (kind === 'compound') {
    ({ shown, nav } = depictedPage(linkUrl(input), uris, input.reply.headers));
    const pictures = await compoundDepictions(input.deps, shown, 100);
    items = html`<ul class="items compounds">${shown.map((u, i) => html`<li>${pictures[i]} ${link(u, input.base)}</li>`)}</ul>`;
  } else {
    items = html`<table class="items"><thead><tr><th>URI</th><th>Title</th>${kind === 'task' ? html`<th>Status</th>` : ''}</tr></thead><tbody>
${uris.map((u) => html`<tr><td>${link(u, input.base)}</td><td>${g.value(u, DC.title) ?? ''}</td>${kind === 'task' ? html`<td>${(g.value(u, OT.hasStatus) ?? '').replace(/^.*#/, '')}</td>` : ''}</tr>`)}</tbody></table>`;
  }
  const empty = uris.length === 0 ? html`<p>None yet.</p>` : '';
  const form = kind === 'compound' ? searchForm(input, {}) : kind === 'dataset' ? uploadForm(input) : '';
  const body = html`${form}<h2>${title}${uris.length ? ` (${shown.length} on this page)` : ''}</h2>${empty}${uris.length ? items : ''}${nav}`;
  return layout({ title, base: input.base, body, formats: formatLinks(input.uri, input.reply.variants.map((v) => v.type)) });
}
