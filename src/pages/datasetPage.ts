// A dataset (SPEC §4.4) for a person: compounds with depictions by features, paged and
// sortable by a feature, a histogram per numeric feature and counts per nominal one.
// Sorting and the plots need every row, not the page the handler would serve, so this
// reads the dataset's rows from the store itself; the reply gives status and formats.
import type Koa from 'koa';
import { DC } from '../rdf/vocab.ts';
import { isSearch } from '../search/params.ts';
import { parsePaging } from '../http/paging.ts';
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { viewOf, rowsOf, type EntryRow } from '../datasets/datasetLayout.ts';
import { datasetNeighbourOutput, neighboursOfRows } from '../models/neighbours.ts';
import { neighbourCells } from './neighbourCells.ts';
import { metadataOf } from '../datasets/datasetOutput.ts';
import { warningCounts, warningsIn, warningsUri } from '../datasets/datasetWarnings.ts';
import { readFeatures } from '../features/features.ts';
import type { FeatureInfo } from '../features/featureModel.ts';
import { html, link, raw, type Html } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import { compoundDepictions } from './depiction.ts';
import { barCounts, fmt, histogram } from './plots.ts';
import { linkUrl, queryText, type PageInput } from './page.ts';
import { searchResults } from './searchPage.ts';
import { listParam } from '../routes/dataset.ts';

/** Rows per page: each carries a depiction. */
const PAGE = { pageSize: 20, maxPageSize: 200 };
const MOST_NOMINAL_BARS = 12;

interface Row {
  compound: string;
  values: Array<string | undefined>;
  entry: EntryRow;
}

/** A value as read (numbers rounded; the data formats keep full precision). */
const readable = (v: string | undefined, numeric: boolean): string => (v === undefined ? '' : numeric && Number.isFinite(Number(v)) ? fmt(Number(v)) : v);

function sortRows(rows: Row[], column: number, numeric: boolean, descending: boolean): Row[] {
  const sign = descending ? -1 : 1;
  // Missing values go last either way: a sorted table shows what is there first.
  return [...rows].sort((a, b) => {
    const x = a.values[column];
    const y = b.values[column];
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
    return sign * (numeric ? Number(x) - Number(y) : x.localeCompare(y));
  });
}

function plotOf(feature: FeatureInfo, column: Array<string | undefined>): Html {
  const present = column.filter((v): v is string => v !== undefined);
  if (present.length === 0) return html``;
  if (feature.type === 'numeric') {
    const numbers = present.map(Number).filter(Number.isFinite);
    return numbers.length ? html`<figure>${histogram(numbers, feature.title)}<figcaption>${feature.title}: ${numbers.length} values, mean ${fmt(numbers.reduce((s, v) => s + v, 0) / numbers.length)}</figcaption></figure>` : html``;
  }
  if (feature.type !== 'nominal') return html``;
  const counts = new Map<string, number>();
  for (const v of present) counts.set(v, (counts.get(v) ?? 0) + 1);
  const bars = [...counts].sort((a, b) => b[1] - a[1]).slice(0, MOST_NOMINAL_BARS);
  return html`<figure>${barCounts(bars, feature.title)}<figcaption>${feature.title}: ${bars.map(([k, c]) => `${k} ${c}`).join(', ')}</figcaption></figure>`;
}

/** Pages shown either side of the current one; the first and last are always linked. */
const PAGE_SPAN = 3;

/** "Page 3 of 9" and links to the pages near it (numbered from 1 for a person; ?page= from 0). */
function pageNumbers(current: number, pages: number, at: (page: number) => string): Html {
  if (pages <= 1) return html``;
  const near = [...new Set([0, ...Array.from({ length: 2 * PAGE_SPAN + 1 }, (_, k) => current - PAGE_SPAN + k), pages - 1])].filter((p) => p >= 0 && p < pages);
  const items = near.map((p, k) => html`${k > 0 && p - near[k - 1]! > 1 ? html`<span class="gap">…</span>` : ''}${p === current
    ? html`<span class="page" aria-current="page">${String(p + 1)}</span>`
    : html`<a class="page" href="${at(p)}">${String(p + 1)}</a>`}`);
  return html`<span class="pages">Page ${String(current + 1)} of ${String(pages)}: ${items}</span>`;
}

const WARNINGS_SHOWN = 10;

/** What the upload did not keep, at the top of the page: the counts, the first warnings, a link to all. */
function warningsBox(dataset: string, texts: readonly string[]): Html {
  if (texts.length === 0) return html``;
  const { droppedRows, emptiedCells } = warningCounts(texts);
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return html`<section class="box warnings" role="status"><h2>${plural(texts.length, 'warning', 'warnings')}</h2>
<p>${plural(droppedRows, 'row', 'rows')} dropped, ${plural(emptiedCells, 'cell', 'cells')} left empty. <a href="${warningsUri(dataset)}">All warnings</a> (also as <a href="${warningsUri(dataset)}?media=text/csv">CSV</a>).</p>
<ul>${texts.slice(0, WARNINGS_SHOWN).map((t) => html`<li>${t}</li>`)}</ul>${texts.length > WARNINGS_SHOWN ? html`<p>… and ${texts.length - WARNINGS_SHOWN} more.</p>` : ''}</section>`;
}

function sortLink(ctx: Koa.Context, base: string, i: number, current: { sort: number; desc: boolean }): string {
  const u = linkUrl({ ctx, base });
  u.searchParams.set('sort', String(i));
  u.searchParams.set('order', current.sort === i && !current.desc ? 'desc' : 'asc');
  u.searchParams.delete('page');
  return u.href;
}

export async function datasetPage(input: PageInput): Promise<string> {
  const { ctx, deps, uri, base } = input;
  // A search within the dataset with no hit answers an empty search result; with hits it
  // arrives here as the dataset restricted by compound_uris[] (SPEC §1 rule 8), as do
  // requests that name compound_uris[] themselves.
  if (isSearch(ctx.query)) return searchResults(input);
  const view = await viewOf(deps, uri, { compoundUris: listParam(ctx.query, 'compound_uris') });
  const features = (await readFeatures(deps, view.features)).map((info, j) => {
    if (info) return info;
    const uri = view.features[j]!; // readFeatures answers one entry per URI asked
    return { uri, title: uri, type: 'string' as const };
  });
  const all: Row[] = [];
  // A row has one value per feature of the view, in order.
  for await (const r of rowsOf(deps, view)) all.push({ compound: r.compound, values: r.values.map((v) => v?.value), entry: r });
  const sortRaw = queryText(ctx, 'sort');
  const sort = sortRaw === '' ? -1 : Number(sortRaw);
  if (sortRaw !== '' && !(Number.isInteger(sort) && sort >= 0 && sort < features.length)) {
    throw new BadRequest(`parameter sort=${JSON.stringify(sortRaw.slice(0, 20))} is out of range: expected a column from 0 to ${features.length - 1}`, { code: ERR.InvalidParameter });
  }
  const desc = queryText(ctx, 'order') === 'desc';
  const rows = sort >= 0 ? sortRows(all, sort, features[sort]!.type === 'numeric', desc) : all; // sort was checked in range
  const paging = parsePaging(ctx.query, PAGE);
  const shown = rows.slice(paging.offset, paging.offset + paging.limit);
  const at = (page: number) => {
    const u = linkUrl({ ctx, base });
    u.searchParams.set('page', String(page));
    u.searchParams.set('pagesize', String(paging.pageSize));
    return u.href;
  };
  const pictures = await compoundDepictions(deps, shown.map((r) => r.compound), 110);
  // A read-across prediction shows the neighbours it came from beside it.
  const output = await datasetNeighbourOutput(deps, uri);
  const neighbours = output ? await neighbourCells(deps, base, await neighboursOfRows(deps, uri, shown.map((r) => r.entry))) : [];
  const meta = await metadataOf(deps, uri);
  const metaValue = (p: typeof DC.title) => meta.find((q) => q.predicate.equals(p))?.object.value;
  // A dataset posted as a bare body has no title: its file name, else its number, not its URI.
  const title = metaValue(DC.title) ?? metaValue(DC.source) ?? `Dataset ${decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1))}`;
  const pages = Math.max(1, Math.ceil(rows.length / paging.pageSize));
  const arrow = (i: number) => (i === sort ? (desc ? ' ▼' : ' ▲') : '');
  const body = html`${warningsBox(uri, warningsIn(uri, meta))}<p>${all.length} entries, ${features.length} features.</p>
<div class="plots">${features.map((f, i) => plotOf(f, all.map((r) => r.values[i])))}</div>
<h2>Entries ${shown.length ? `${paging.offset + 1}-${paging.offset + shown.length}` : ''}</h2>
<table class="entries"><thead><tr><th>Structure</th><th>Compound</th>${features.map((f, i) => html`<th${raw(i === sort ? ` aria-sort="${desc ? 'descending' : 'ascending'}"` : '')}><a class="sort" href="${sortLink(ctx, base, i, { sort, desc })}" title="sort by ${f.title}">${f.title}${arrow(i)}</a>${f.units ? html` <span class="units">(${f.units})</span>` : ''}</th>`)}${output ? html`<th title="${output.measure}">Neighbours (similarity, measured value)</th>` : ''}</tr></thead>
<tbody>${shown.map((r, k) => html`<tr><td>${pictures[k]}</td><td>${link(r.compound, base)}</td>${r.values.map((v, i) => html`<td${raw(features[i]!.type === 'numeric' ? ' class="num"' : '')}>${readable(v, features[i]!.type === 'numeric')}</td>`)}${neighbours[k] ?? ''}</tr>`)}</tbody></table>
<nav class="paging" aria-label="pages">${paging.page > 0 ? html`<a rel="prev" href="${at(paging.page - 1)}">← previous page</a>` : ''}${pageNumbers(paging.page, pages, at)}${paging.offset + paging.limit < rows.length ? html`<a rel="next" href="${at(paging.page + 1)}">next page →</a>` : ''}</nav>
<h2>Features</h2><ul>${features.map((f) => html`<li>${link(f.uri, base, f.title)} (${f.type}${f.units ? `, ${f.units}` : ''})</li>`)}</ul>`;
  return layout({ title, base, body, formats: formatLinks(uri, input.reply.variants.map((v) => v.type)) });
}
