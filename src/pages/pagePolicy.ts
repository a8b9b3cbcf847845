// What a browser may do with a page (W3C CSP Level 3): run the one page script and apply the
// one stylesheet, each allowed by its SHA-256 hash, so that markup that got into a page
// anyway could neither run script nor load anything; talk only to this service; never be
// framed (clickjacking); and send no Referer, so a page's URL leaves with no one.
import { createHash } from 'node:crypto';
import { PAGE_SCRIPT } from './script.ts';
import { PAGE_STYLE } from './layout.ts';
import { STATIC_PATH } from './structureEditor.ts';

const hashOf = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Header fields of every HTML answer; `baseUrl`'s origin is where forms post and scripts fetch. */
export function pageHeaders(baseUrl: string): Record<string, string> {
  const own = `'self' ${new URL(baseUrl).origin}`;
  const policy = [
    "default-src 'none'",
    // The structure editor's module scripts are files of the service (structureEditor.ts):
    // allowed by their path alone, so no other script of the origin runs either.
    `script-src ${hashOf(PAGE_SCRIPT)} ${baseUrl.replace(/\/+$/, '')}${STATIC_PATH}`,
    `style-src ${hashOf(PAGE_STYLE)}`,
    // Depictions and plots are inline SVG; the favicon is a data: URI (layout.ts).
    "img-src 'self' data:",
    `connect-src ${own}`,
    `form-action ${own}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': policy,
    // For browsers without CSP Level 2's frame-ancestors (RFC 7034).
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}
