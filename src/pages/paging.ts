// Previous/next links of a paged list, from the Link header its handler set (RFC 8288).
import { html, type Html } from './html.ts';

export function pagingLinks(headers: Record<string, string>): Html {
  const links = [...(headers.Link ?? '').matchAll(/<([^>]+)>;\s*rel="(\w+)"/g)].map((m) => ({ href: m[1], rel: m[2] }));
  const wanted = links.filter((l) => l.rel === 'prev' || l.rel === 'next');
  if (!wanted.length) return html``;
  return html`<nav class="paging" aria-label="pages">${wanted.map((l) => html`<a rel="${l.rel}" href="${l.href}">${l.rel === 'prev' ? '← previous page' : 'next page →'}</a>`)}</nav>`;
}
