// A task (SPEC §4.3) for a person: status and progress that update without reloading (the
// inline script polls the task URI), the result link when done, the error report when not.
import { DC, OT } from '../rdf/vocab.ts';
import { html, link, raw } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import { reportHtml } from './errorPage.ts';
import { script } from './script.ts';
import type { PageInput } from './page.ts';

export async function taskPage(input: PageInput): Promise<string> {
  const g = await input.graph();
  const { uri, base } = input;
  const status = (g.value(uri, OT.hasStatus) ?? '').replace(/^.*#/, '');
  const percent = Number(g.value(uri, OT.percentageCompleted) ?? 0);
  const results = g.values(uri, OT.resultURI);
  const error = g.value(uri, OT.error);
  const running = input.reply.status === 202;
  const body = html`<p>${g.value(uri, DC.title)}</p>
<div class="job" role="status" aria-live="polite"${raw(running ? ` data-follow="${uri}"` : '')}>
<p><progress max="100" value="${Number.isFinite(percent) ? percent : 0}"></progress> <span class="status">${status}${running ? ` ${percent}%` : ''}</span></p>
<p class="result">${results.map((r) => html`<a class="result-link" href="${r}">${r}</a> `)}</p></div>
${error ? reportHtml(g, error) : ''}
<dl><dt>Created by</dt><dd>${g.value(uri, DC.creator) ? link(g.value(uri, DC.creator)!, base) : ''}</dd><dt>Date</dt><dd>${g.value(uri, DC.date)}</dd></dl>
${running ? script() : ''}`;
  return layout({ title: `Task ${status}`, base, body, formats: formatLinks(uri, input.reply.variants.map((v) => v.type)) });
}
