// A QMRF document as a readable page: one heading per chapter and section, references
// resolved to their catalog entries, and the placeholders the author must fill marked.
import { html, type Html } from '../../pages/html.ts';
import { layout } from '../../pages/layout.ts';
import { QMRF_SECTIONS } from './qmrfChapters.ts';
import { TO_COMPLETE } from './qmrfText.ts';
import type { XmlChild, XmlElement } from './xmlTree.ts';

const FIXED = new Set(['chapter', 'name', 'help']);
const CATALOG_ATTRS = ['name', 'title', 'definition', 'version', 'units', 'description', 'url', 'affiliation', 'contact', 'email', 'group'];

function text(t: string): Html {
  const parts = t.split(TO_COMPLETE);
  return html`${parts.map((p, i) => html`${i ? html`<mark>${TO_COMPLETE}</mark>` : ''}${p.split('\n').map((l, j) => html`${j ? html`<br>` : ''}${l}`)}`)}`;
}

function entry(e: XmlElement): Html {
  const shown = CATALOG_ATTRS.filter((k) => e.attrs[k] !== undefined).map((k) => [k, e.attrs[k]!] as const);
  return html`<li>${shown.map(([k, v], i) => html`${i ? ' · ' : ''}${k === 'url' ? html`<a href="${v}">${v}</a>` : k === 'name' || k === 'title' || k === 'definition' ? html`<strong>${text(v)}</strong>` : text(v)}`)}</li>`;
}

function content(children: readonly XmlChild[], byId: Map<string, XmlElement>): Html {
  return html`${children.map((c) => {
    if (typeof c === 'string') return html`<p>${text(c)}</p>`;
    if (c.name.endsWith('_ref')) { const target = byId.get(c.attrs.idref ?? ''); return target ? html`<ul>${entry(target)}</ul>` : ''; }
    if (c.name === 'molecules' || c.name === 'document') return html`<ul><li><a href="${c.attrs.url ?? ''}">${c.attrs.url}</a> ${c.attrs.description ?? ''}</li></ul>`;
    if (c.name === 'equation') return html`<p><em>Equation:</em> ${text(c.children.filter((x): x is string => typeof x === 'string').join(''))}</p>`;
    return section(c, byId);
  })}`;
}

function section(e: XmlElement, byId: Map<string, XmlElement>): Html {
  const [chapter, title] = QMRF_SECTIONS[e.name] ?? ['', e.name];
  const answers = Object.entries(e.attrs).filter(([k]) => !FIXED.has(k) && k !== 'options');
  const top = !chapter.includes('.');
  const heading = top ? html`<h2>${chapter}. ${title}</h2>` : html`<h3>${chapter} ${title}</h3>`;
  return html`<section id="qmrf-${e.name}">${heading}${answers.length ? html`<p>${answers.map(([k, v], i) => html`${i ? ' · ' : ''}${k}: <strong>${v}</strong>`)}</p>` : ''}${e.attrs.options ? html`<p>Options: ${e.attrs.options}</p>` : ''}${content(e.children, byId)}</section>`;
}

function catalogEntries(root: XmlElement): Map<string, XmlElement> {
  const byId = new Map<string, XmlElement>();
  const catalogs = root.children.find((c): c is XmlElement => typeof c !== 'string' && c.name === 'Catalogs');
  for (const catalog of catalogs?.children ?? []) {
    if (typeof catalog === 'string') continue;
    for (const e of catalog.children) if (typeof e !== 'string' && e.attrs.id) byId.set(e.attrs.id, e);
  }
  return byId;
}

export function qmrfHtml(root: XmlElement, frame: { title: string; base: string; uri: string }): string {
  const byId = catalogEntries(root);
  const chapters = root.children.find((c): c is XmlElement => typeof c !== 'string' && c.name === 'QMRF_chapters');
  const body = html`<p>QMRF 1.3 report of <a href="${frame.uri}">${frame.uri}</a>, filled from what the service knows; the parts marked <mark>${TO_COMPLETE}</mark> need the model's author.
<a href="${frame.uri}/qmrf?media=application%2Fxml" download="qmrf.xml">Download the QMRF XML</a>.</p>
${(chapters?.children ?? []).map((c) => (typeof c === 'string' ? '' : section(c, byId)))}`;
  return layout({ title: `QMRF: ${frame.title}`, base: frame.base, body });
}
