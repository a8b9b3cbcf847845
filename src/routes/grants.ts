// /auth/grants (AUTH_MODE=local): owners let users or groups read their resources under
// AUTH_READ=owner. POST resource=<uri>&grantee=<user | group:NAME> → 201 and the grant's
// URI; GET lists the grants the caller made or holds; GET /auth/grants/{id} is one grant;
// DELETE revokes it. /auth paths pass the auth middleware untouched, so these routes
// check the token themselves. In opensso mode the OpenSSO policy service keeps grants.
import type Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { BadRequest, NotFound, Unauthorized } from '../errors.ts';
import { readForm } from '../http/body.ts';
import { emptyReply, rdfReply, uriListReply } from '../http/reply.ts';
import { handle } from '../http/send.ts';
import { ERR } from '../rdf/vocab.ts';
import { createGrant, grantQuads, grantsOf, readGrant, revokeGrant } from '../auth/grants.ts';
import { TOKEN_SHAPE, tokenOfForm, tokenOfHeaders } from '../auth/tokenSource.ts';

const ID = /^[0-9a-f-]{36}$/;

export function grantRoutes(router: Router, deps: Deps): void {
  /** The caller and their groups; 401 without a valid token, 404 where grants are not kept here. */
  const caller = async (ctx: Koa.Context): Promise<{ user: string; groups: string[] }> => {
    const identity = deps.identity;
    if (!identity) throw new NotFound('no grants here: AUTH_MODE is off, every resource is open');
    if (identity.authorize) throw new NotFound('no grants here: with AUTH_MODE=opensso the OpenSSO policy service decides who reads what');
    const token = tokenOfHeaders(ctx) ?? (await tokenOfForm(ctx, true));
    const user = token !== undefined && TOKEN_SHAPE.test(token) ? await identity.validate(token) : undefined;
    if (user === undefined) throw new Unauthorized('grants need a valid token', { code: ERR.InvalidToken });
    return { user, groups: identity.groupsOf?.(user) ?? [] };
  };
  const grantUri = (ctx: Koa.Context): string => {
    const id = String(ctx.params.id);
    if (!ID.test(id)) throw new NotFound(`no grant ${id.slice(0, 100)}`);
    return uriOf(deps.config, `/auth/grants/${id}`);
  };

  router.post('/auth/grants', handle(async (ctx) => {
    const { user } = await caller(ctx);
    const form = await readForm(ctx);
    const field = (name: string) => {
      const value = form.get(name)?.trim();
      if (!value) throw new BadRequest(`missing parameter ${name}`, { code: ERR.MissingParameter, details: 'POST /auth/grants takes resource=<uri> and grantee=<user or group:NAME>.' });
      return value;
    };
    const { grant, created } = await createGrant(deps, field('resource'), field('grantee'), user);
    return uriListReply([grant.uri], { status: created ? 201 : 200, headers: { Location: grant.uri }, quads: () => grantQuads(deps, grant.uri) });
  }));

  router.get('/auth/grants', handle(async (ctx) => {
    const { user, groups } = await caller(ctx);
    const grants = await grantsOf(deps, user, groups);
    return uriListReply(grants.map((g) => g.uri), { quads: async () => (await Promise.all(grants.map((g) => grantQuads(deps, g.uri)))).flat() });
  }));

  router.get('/auth/grants/:id', handle(async (ctx) => {
    const { user, groups } = await caller(ctx);
    const uri = grantUri(ctx);
    const grant = await readGrant(deps, uri);
    // Only its grantor and its grantees see a grant; to anyone else it does not exist.
    if (!grant || !(grant.grantor === user || grant.grantee === user || groups.some((g) => grant.grantee === `group:${g}`))) throw new NotFound(`no grant ${uri}`);
    return rdfReply(await grantQuads(deps, uri), { uris: [uri] });
  }));

  router.delete('/auth/grants/:id', handle(async (ctx) => {
    const { user } = await caller(ctx);
    await revokeGrant(deps, grantUri(ctx), user);
    return emptyReply();
  }));
}
