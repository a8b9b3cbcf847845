// Escaped HTML from template literals: every interpolated value is text unless it is Html
// made by this module, so data from the store or the request cannot become markup.
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!); // the pattern matches only ESCAPES' keys

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part as string | number | boolean));
}

export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  return new Html(strings.reduce((out, s, i) => out + s + (i < parts.length ? render(parts[i]) : ''), ''));
}

/** Markup made elsewhere on the server (RDKit SVG, our plots): trusted, never request text. */
export const raw = (text: string): Html => new Html(text);

/** A link to a URI of any host, shown as its path when it is ours. */
export function link(uri: string, base: string, label?: string): Html {
  const text = label ?? (uri.startsWith(base + '/') ? uri.slice(base.length) : uri);
  return html`<a href="${uri}">${text}</a>`;
}
