// An error report (SPEC §7.2) for a person: status, message, details and causes.
import { ERR, OT } from '../rdf/vocab.ts';
import type { Graph } from './graph.ts';
import { html, type Html } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import type { PageInput } from './page.ts';

export function reportHtml(g: Graph, report: string): Html {
  const code = (g.value(report, OT.errorCode) ?? '').replace(ERR.ns, '');
  const details = g.value(report, OT.errorDetails);
  const causes = g.values(report, OT.errorCause);
  return html`<div class="error" role="alert"><p><strong class="code">${g.value(report, OT.statusCode)} ${code}</strong>: <span class="message">${g.value(report, OT.message)}</span></p>
${details ? html`<pre class="details">${details}</pre>` : ''}
${causes.map((c) => html`<p>Caused by:</p>${reportHtml(g, c)}`)}</div>`;
}

/** The top report of a graph: the one no other report names as its cause. */
export function topReport(g: Graph): string | undefined {
  const causes = new Set(g.subjects(OT.errorCause).flatMap((s) => g.values(s, OT.errorCause)));
  return g.subjects(OT.errorCode).find((r) => !causes.has(r));
}

export async function errorPage(input: PageInput): Promise<string> {
  const g = await input.graph();
  const report = topReport(g);
  const body = report ? reportHtml(g, report) : html`<div class="error" role="alert"><p>Error ${input.reply.status}</p></div>`;
  return layout({ title: `Error ${input.reply.status}`, base: input.base, body, formats: formatLinks(input.uri, input.reply.variants.map((v) => v.type)) });
}
