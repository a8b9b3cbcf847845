// An algorithm (SPEC §4.5) for a person: description, types, parameters with defaults and
// ranges, and a form that applies it to a dataset (with a prediction feature if supervised).
import { ATYPE, DC, OT } from '../rdf/vocab.ts';
import { html, link, raw } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import { jobBox, script } from './script.ts';
import type { PageInput } from './page.ts';

const short = (iri: string) => iri.replace(/^.*[#/]/, '');

export async function algorithmPage(input: PageInput): Promise<string> {
  const g = await input.graph();
  const { uri, base } = input;
  const types = g.values(uri, OT.isA);
  const supervised = types.includes(ATYPE.Supervised.value);
  const params = g.values(uri, OT.parameters).map((p) => ({
    name: g.value(p, DC.title) ?? '',
    description: g.value(p, DC.description) ?? '',
    scope: g.value(p, OT.paramScope) ?? '',
    value: g.value(p, OT.paramValue) ?? '',
  }));
  const body = html`<p class="description">${g.value(uri, DC.description)}</p>
<p>Types: ${types.map((t, i) => html`${i ? ', ' : ''}<a href="${t}">${short(t)}</a>`)}</p>
<h2>Parameters</h2>${params.length ? html`<table class="parameters"><thead><tr><th>Name</th><th>Default</th><th>Scope</th><th>Description and range</th></tr></thead><tbody>
${params.map((p) => html`<tr><td><code>${p.name}</code></td><td>${p.value}</td><td>${p.scope}</td><td>${p.description}</td></tr>`)}</tbody></table>` : html`<p>None.</p>`}
<form class="box" id="apply" method="post" action="${uri}" data-job="apply-job"><h2>Apply to a dataset</h2>
<label>Dataset URI: <input name="dataset_uri" type="url" size="60" required></label>
${supervised ? html`<label>Prediction feature URI: <input name="prediction_feature" type="url" size="60" required></label>` : ''}
${params.map((p) => html`<label><code>${p.name}</code>: <input name="${p.name}" placeholder="${p.value}"${raw(p.scope === 'mandatory' && !p.value ? ' required' : '')}></label>`)}
<button type="submit">Apply</button></form>${jobBox('apply-job')}${script()}
<p>Creator: ${g.value(uri, DC.creator)}. ${g.values(uri, DC.source).map((s) => html`Derived from ${link(s, base)}.`)}</p>`;
  return layout({ title: g.value(uri, DC.title) ?? uri, base, body, formats: formatLinks(uri, input.reply.variants.map((v) => v.type)) });
}
