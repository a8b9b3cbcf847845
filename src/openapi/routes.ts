// GET /openapi.json, /openapi.yaml, /context.jsonld and /docs (with its files).
import Router from '@koa/router';
import YAML from 'yaml';
import type { Deps } from '../deps.ts';
import { handle } from '../http/send.ts';
import { bodyReply } from '../http/reply.ts';
import { NotFound } from '../errors.ts';
import { JSON_LD, JSON_PLAIN } from '../rdf/formats.ts';
import { CONTEXT_PATH, JSON_CONTEXT } from '../rdf/jsonContext.ts';
import { openApiDocument } from './document.ts';
import { docsFiles, docsHtml, docsHeaders } from './docsPage.ts';

export function apiDocsRouter(deps: Deps): Router {
  const router = new Router();
  let json: string | undefined;
  let yaml: string | undefined;
  const doc = () => openApiDocument(deps.config);
  router.get('/openapi.json', handle(() => bodyReply(JSON_PLAIN, () => (json ??= JSON.stringify(doc(), null, 2) + '\n'))));
  router.get('/openapi.yaml', handle(() => bodyReply('application/yaml', () => (yaml ??= YAML.stringify(doc(), { aliasDuplicateObjects: false })))));
  const context = JSON.stringify(JSON_CONTEXT, null, 2) + '\n';
  router.get(CONTEXT_PATH, handle(() => bodyReply(JSON_LD, context)));
  const headers = docsHeaders(deps.config.baseUrl);
  const html = docsHtml(deps.config.baseUrl);
  const files = docsFiles(deps.config.baseUrl);
  router.get('/docs', handle(() => bodyReply('text/html', html, { headers })));
  router.get('/docs/:file', handle((ctx) => {
    const name = String(ctx.params.file);
    const file = Object.hasOwn(files, name) ? files[name] : undefined;
    if (!file) throw new NotFound(`no file ${name.slice(0, 100)} in /docs`);
    return bodyReply(file.type, file.body);
  }));
  return router;
}
