// The answer to a form a browser posted without script (POST, PUT, DELETE): the URI it
// names, and for a task (202, SPEC §4.3) a box that follows it to its result.
import { URI_LIST } from '../rdf/formats.ts';
import { variantText } from './graph.ts';
import { html, link } from './html.ts';
import { layout } from './layout.ts';
import { script } from './script.ts';
import type { PageInput } from './page.ts';

export async function answerPage(input: PageInput): Promise<string> {
  const uris = ((await variantText(input.reply, URI_LIST)) ?? '').split(/\r?\n/).filter(Boolean);
  const task = input.reply.status === 202 ? uris[0] : undefined;
  const body = task
    ? html`<p>Task ${link(task, input.base)} runs.</p><div class="job" role="status" aria-live="polite" data-follow="${task}">
<p><progress max="100" value="0"></progress> <span class="status">Queued</span></p><p class="result"></p></div>${script()}`
    : html`<ul>${uris.map((u) => html`<li>${link(u, input.base)}</li>`)}</ul>`;
  return layout({ title: task ? 'Task started' : 'Done', base: input.base, body });
}
