// The frame of every page: one small inline stylesheet, a navigation bar of the
// collections, and no resource from another host (pages must work offline and fast).
import { html, raw, type Html } from './html.ts';

/** The stylesheet's text: its hash is in the pages' Content-Security-Policy (pagePolicy.ts). */
export const PAGE_STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fafafa}
header{background:#234;color:#fff;padding:.5em 1em}header a{color:#fff;margin-right:1em;text-decoration:none}
header a:hover,header a:focus{text-decoration:underline}
main{padding:1em 1.5em;max-width:80em}
h1{font-size:1.5em;margin:.3em 0}h2{font-size:1.15em;margin:1.2em 0 .4em}
table{border-collapse:collapse;background:#fff}td,th{border:1px solid #ccd;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#eef}th a{color:inherit}
.num{text-align:right;font-variant-numeric:tabular-nums}
.depiction{display:inline-block;background:#fff;border:1px solid #ccd;line-height:0}
.plots{display:flex;flex-wrap:wrap;gap:1em}.plots figure{margin:0;background:#fff;border:1px solid #ccd;padding:.5em}
figcaption{font-size:.9em;color:#444;max-width:320px}
form.box{background:#fff;border:1px solid #ccd;padding:.8em;margin:.8em 0;max-width:45em}
form.box label{display:block;margin:.3em 0}
.error{background:#fee;border:1px solid #c66;padding:.8em}
.paging a{margin-right:1em}
progress{width:20em}
.structure-editor{margin:.4em 0}.structure-editor .canvas{width:min(100%,40em);height:370px;background:#fff;border:1px solid #ccd}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{white-space:pre-wrap}
dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:600}dd{margin:0;word-break:break-all}
`;

const NAV: ReadonlyArray<[string, string]> = [
  ['/', 'Home'], ['/compound', 'Compounds & search'], ['/dataset', 'Datasets'], ['/feature', 'Features'],
  ['/algorithm', 'Algorithms'], ['/model', 'Models'], ['/validation', 'Validations'], ['/task', 'Tasks'],
];

export interface PageFrame {
  title: string;
  base: string;
  body: Html;
  /** Where the machine-readable forms of the page's resource are. */
  formats?: Html;
}

export function layout(frame: PageFrame): string {
  return '<!DOCTYPE html>\n' + html`<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>${frame.title} · OpenTox</title><style>${raw(PAGE_STYLE)}</style></head>
<body><header><nav aria-label="collections">${NAV.map(([p, t]) => html`<a href="${frame.base + p}">${t}</a>`)}</nav></header>
<main><h1>${frame.title}</h1>${frame.body}${frame.formats ?? ''}</main></body></html>`.text;
}

/** Links to the same URI in other media types (?media= works where a browser cannot set Accept). */
export function formatLinks(uri: string, types: readonly string[]): Html {
  const sep = uri.includes('?') ? '&' : '?';
  return html`<h2>Other formats</h2><p>${types.filter((t) => t !== 'text/html').map((t, i) => html`${i ? ' · ' : ''}<a href="${uri + sep}media=${encodeURIComponent(t)}">${t}</a>`)}</p>`;
}
