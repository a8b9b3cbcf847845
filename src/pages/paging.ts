// Previous/next links of a paged list, from the Link header its handler set (RFC 8288).
import { html, type Html } from './html.ts';

export function pagingLinks(headers: Record<string, string>): Html {
  const links = [...(headers.Link ?? '').matchAll(/<([^>]+)>;\s*rel="(\w+)"/g)].map((m) => ({ href: m[1], rel: m[2] }));
  const wanted = links.filter((l) => l.rel === 'prev' || l.rel === 'next');
  if (!wanted.length) return html``;
  return html`<nav class="paging" aria-label="pages">${wanted.map((l) => html`<a rel="${l.rel}" href="${l.href}">${l.rel === 'prev' ? '← previous page' : 'next page →'}</a>`)}</nav>`;
}

/** Items a page of depictions shows when the request names no page size. */
export const DEPICTED_PAGE = 50;

/**
 * A list drawn with a depiction per item: with no page or pagesize asked, the first
 * DEPICTED_PAGE items of the handler's page, linking on at that size (page 1 of size 50
 * continues where they stop); else the page as asked, with its own links.
 */
export function depictedPage(url: URL, uris: readonly string[], headers: Record<string, string>): { shown: readonly string[]; nav: Html } {
  if (url.searchParams.has('page') || url.searchParams.has('pagesize') || uris.length <= DEPICTED_PAGE) return { shown: uris, nav: pagingLinks(headers) };
  const next = new URL(url);
  next.searchParams.set('page', '1');
  next.searchParams.set('pagesize', String(DEPICTED_PAGE));
  return { shown: uris.slice(0, DEPICTED_PAGE), nav: html`<nav class="paging" aria-label="pages"><a rel="next" href="${next.href}">next page →</a></nav>` };
}
