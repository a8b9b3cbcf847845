// Any other resource (feature, ontology, conformer, ...): its triples grouped by subject,
// every IRI a link, so the whole interface stays browsable.
import type * as RDF from '@rdfjs/types';
import { DC } from '../rdf/vocab.ts';
import { html, link, type Html } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import type { PageInput } from './page.ts';

function term(t: RDF.Term, base: string): Html {
  if (t.termType === 'NamedNode') return link(t.value, base);
  if (t.termType === 'BlankNode') return html`<code>_:${t.value}</code>`;
  return html`${t.value}`;
}

const short = (iri: string) => iri.replace(/^.*[#/]/, '');

export function triplesTable(quads: readonly RDF.Quad[], base: string): Html {
  // Every subject's list holds at least the quad that added it.
  const bySubject = new Map<string, RDF.Quad[]>();
  for (const q of quads) bySubject.set(q.subject.value, [...(bySubject.get(q.subject.value) ?? []), q]);
  return html`${[...bySubject].map(([s, qs]) => html`<h2>${qs[0]!.subject.termType === 'NamedNode' ? link(s, base) : html`<code>_:${s}</code>`}</h2>
<table><tbody>${qs.map((q) => html`<tr><th scope="row" title="${q.predicate.value}">${short(q.predicate.value)}</th><td>${term(q.object, base)}</td></tr>`)}</tbody></table>`)}`;
}

export async function resourcePage(input: PageInput): Promise<string> {
  const g = await input.graph();
  const title = g.value(input.uri, DC.title) ?? input.ctx.path;
  return layout({ title, base: input.base, body: triplesTable(g.quads, input.base), formats: formatLinks(input.uri, input.reply.variants.map((v) => v.type)) });
}
