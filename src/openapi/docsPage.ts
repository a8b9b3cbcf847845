// /docs: the OpenAPI document rendered by swagger-ui, every file served by the service
// itself (no CDN). The page has no inline script: the bundle and a small init file load
// from 'self', so its policy differs from the other pages' hash-based one
// (src/pages/pagePolicy.ts) in script-src and style-src only.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const dist = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Every URL from the service's base, so /docs/ (trailing slash) and a base path both work. */
const init = (baseUrl: string): string => `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: ${JSON.stringify(baseUrl + '/openapi.json')}, dom_id: '#swagger-ui', deepLinking: true, defaultModelsExpandDepth: 0 });
});
`;

export const docsHtml = (baseUrl: string): string => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>OpenTox REST service: API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${baseUrl}/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${baseUrl}/docs/swagger-ui-bundle.js"></script>
<script src="${baseUrl}/docs/init.js"></script>
</body>
</html>
`;

export interface DocsFile {
  type: string;
  body: () => Buffer | string;
}

let bundle: Buffer | undefined;
let css: Buffer | undefined;

/** The files the page loads, by name; swagger-ui-dist's are read at the first request. */
export function docsFiles(baseUrl: string): Readonly<Record<string, DocsFile>> {
  const start = init(baseUrl);
  return {
    'swagger-ui-bundle.js': { type: 'text/javascript', body: () => (bundle ??= readFileSync(path.join(dist, 'swagger-ui-bundle.js'))) },
    'swagger-ui.css': { type: 'text/css', body: () => (css ??= readFileSync(path.join(dist, 'swagger-ui.css'))) },
    'init.js': { type: 'text/javascript', body: () => start },
  };
}

/** The page's policy (W3C CSP Level 3): script and style from the service only. */
export function docsHeaders(baseUrl: string): Record<string, string> {
  const own = `'self' ${new URL(baseUrl).origin}`;
  return {
    'Content-Security-Policy': [
      "default-src 'none'", `script-src ${own}`, `style-src ${own}`,
      // swagger-ui draws its icons as data: SVG.
      "img-src 'self' data:", `connect-src ${own}`, `form-action ${own}`, "base-uri 'none'", "frame-ancestors 'none'",
    ].join('; '),
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}
