// The auth middleware, mounted before every router: reads the token, checks it,
// applies the policy table (policy.ts) and records owners of what a POST created. With
// auth off it only keeps the token, so it can still be passed on to remote services.
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { Forbidden, Unauthorized } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import type { AuthState } from './caller.ts';
import { recordCreated } from './ownerFallback.ts';
import { forgetOwner, ownerOf } from './owners.ts';
import { forgetGrants } from './grants.ts';
import { isAuthPath, pathAndAncestors, requirement } from './policy.ts';
import { checkNamedInputs, readAccessOf } from './readAccess.ts';
import { TOKEN_SHAPE, tokenOfForm, tokenOfHeaders } from './tokenSource.ts';

const LOGIN_HINT = 'Log in with POST /auth/authenticate (form fields username, password) and send the token as subjectid.';

export function authMiddleware(deps: Deps): Koa.Middleware {
  const identity = deps.identity;
  return async (ctx, next) => {
    const state = ctx.state as AuthState;
    // The authentication service reads its own fields (logging in cannot need a token).
    if (isAuthPath(ctx.path)) return next();
    if (!identity) {
      state.subjectid = tokenOfHeaders(ctx) ?? (await tokenOfForm(ctx, false));
      return next();
    }
    const token = tokenOfHeaders(ctx) ?? (await tokenOfForm(ctx, true));
    if (token !== undefined) {
      if (!TOKEN_SHAPE.test(token)) {
        throw new Unauthorized('malformed token: expected 8 to 2048 printable characters without spaces', { code: ERR.InvalidToken, details: LOGIN_HINT });
      }
      const user = await identity.validate(token);
      if (user === undefined) throw new Unauthorized('the token is unknown, expired or logged out', { code: ERR.InvalidToken, details: LOGIN_HINT });
      state.user = user;
      state.subjectid = token;
    }
    const need = requirement(ctx.method, ctx.path, { read: deps.config.authRead });
    if (need !== 'public' && state.user === undefined) {
      throw new Unauthorized(`${ctx.method} ${ctx.path} needs a valid token`, { details: LOGIN_HINT });
    }
    const access = readAccessOf(deps, ctx);
    if (need === 'reader' && access && !(await access.mayRead(uriOf(deps.config, ctx.path)))) {
      // 403 as OpenTox services answer, not 404: ids are sequential, existence is no secret.
      throw new Forbidden(`${uriOf(deps.config, ctx.path)} belongs to another user, who has not granted you access to it`);
    }
    // A job must not read for its caller what the caller may not read (loadDataset reads
    // local datasets straight from the store): checked before any task exists.
    if (access) await checkNamedInputs(ctx, access);
    if (need === 'owner') {
      for (const path of pathAndAncestors(ctx.path)) {
        const owner = await ownerOf(deps, uriOf(deps.config, path));
        if (owner === undefined) continue;
        if (owner !== state.user) throw new Forbidden(`${uriOf(deps.config, path)} belongs to another user`);
        break;
      }
    }
    await next();
    if (state.user === undefined || ctx.status >= 300) return;
    if (ctx.method === 'POST') await recordCreated(deps, ctx, state.user);
    if (ctx.method === 'DELETE') {
      const uri = uriOf(deps.config, ctx.path.replace(/\/+$/, ''));
      await forgetOwner(deps, uri);
      await forgetGrants(deps, uri);
    }
  };
}
