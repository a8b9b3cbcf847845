// GET / for a person: every collection with what it holds.
import { DC, RDFS } from '../rdf/vocab.ts';
import { html } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import type { PageInput } from './page.ts';

export async function rootPage(input: PageInput): Promise<string> {
  const g = await input.graph();
  const service = input.base + '/';
  const collections = g.values(service, RDFS.seeAlso);
  const body = html`<p>${g.value(service, DC.description)}</p>
<ul class="collections">${collections.map((c) => html`<li><a href="${c}">${c.slice(input.base.length)}</a>: ${g.value(c, DC.title)}</li>`)}</ul>`;
  return layout({ title: g.value(service, DC.title) ?? 'OpenTox', base: input.base, body, formats: formatLinks(service, input.reply.variants.map((v) => v.type)) });
}
