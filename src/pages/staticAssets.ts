// GET /static/{file}: the scripts of the pages that are files, not inline (the structure
// editor and openchemlib, structureEditor.ts). Read once; each is immutable for a given
// openchemlib version and service build, so browsers may keep it a day.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Router from '@koa/router';
import type { Deps } from '../deps.ts';
import { NotFound } from '../errors.ts';
import { bodyReply } from '../http/reply.ts';
import { handle } from '../http/send.ts';
import { EDITOR_SCRIPT, STATIC_PATH } from './structureEditor.ts';

const JAVASCRIPT = 'text/javascript';

type Asset = () => string;

let openchemlib: string | undefined;
/** openchemlib's browser build: one ES module without eval, as its package exports it. */
const openchemlibJs: Asset = () => (openchemlib ??= readFileSync(createRequire(import.meta.url).resolve('openchemlib'), 'utf8'));

const ASSETS: Record<string, Asset> = {
  'openchemlib.js': openchemlibJs,
  'structure-editor.js': () => EDITOR_SCRIPT,
};

export function staticRouter(_deps: Deps): Router {
  const router = new Router();
  router.get(`${STATIC_PATH}:file`, handle((ctx) => {
    const asset = Object.hasOwn(ASSETS, ctx.params.file!) ? ASSETS[ctx.params.file!] : undefined;
    if (!asset) throw new NotFound(`no file ${STATIC_PATH}${ctx.params.file}: the service serves ${Object.keys(ASSETS).join(', ')} there`);
    return bodyReply(JAVASCRIPT, asset(), { headers: { 'Cache-Control': 'public, max-age=86400' } });
  }));
  return router;
}
