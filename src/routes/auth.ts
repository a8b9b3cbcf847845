// The built-in authentication service, speaking the OpenSSO REST calls that
// OpenTox clients make. Every call answers at /auth/NAME and at /opensso/identity/NAME, so
// this service can itself be the AUTH_SERVICE_URL ({base}/opensso) of another instance.
// With AUTH_MODE=opensso the same calls are forwarded to the external service.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { readForm } from '../http/body.ts';
import { BadRequest, NotFound, Unauthorized } from '../errors.ts';
import { bodyReply, emptyReply } from '../http/reply.ts';
import { handle } from '../http/send.ts';
import { ERR } from '../rdf/vocab.ts';
import { TEXT_PLAIN } from '../rdf/formats.ts';
import type { IdentityService } from '../auth/identity.ts';
import { RateLimiter } from '../auth/rateLimit.ts';
import { TOKEN_SHAPE, tokenOfHeaders } from '../auth/tokenSource.ts';
import { grantRoutes } from './grants.ts';

const PREFIXES = ['/auth', '/opensso/identity'];

/** A form field, else the query parameter of the same name (OpenSSO accepts both). */
async function param(ctx: Koa.Context, name: string): Promise<string | undefined> {
  const fromForm = ctx.method === 'GET' ? undefined : (await readForm(ctx)).get(name);
  const fromQuery = ctx.query[name];
  return fromForm || (Array.isArray(fromQuery) ? fromQuery[0] : fromQuery) || undefined;
}

async function required(ctx: Koa.Context, name: string): Promise<string> {
  const value = await param(ctx, name);
  if (!value) throw new BadRequest(`missing parameter ${name}`, { code: ERR.MissingParameter });
  return value;
}

/** The user of a token, or undefined; a malformed token is simply not valid. */
async function userOf(identity: IdentityService, token: string): Promise<string | undefined> {
  return TOKEN_SHAPE.test(token) ? identity.validate(token) : undefined;
}

const text = (body: string) => bodyReply(TEXT_PLAIN, body);

export function authRouter(deps: Deps): Router {
  const router = new Router();
  const limiter = new RateLimiter(deps.config.loginRateLimit, deps.config.loginWindowSeconds);
  const service = (): IdentityService => {
    if (!deps.identity) throw new NotFound('no authentication service here: AUTH_MODE is off, every resource is open');
    return deps.identity;
  };
  for (const prefix of PREFIXES) {
    router.post(`${prefix}/authenticate`, handle(async (ctx) => {
      const identity = service();
      limiter.hit(ctx.ip);
      const username = await required(ctx, 'username');
      const password = await required(ctx, 'password');
      const token = await identity.authenticate(username, password);
      if (!token) throw new Unauthorized('wrong user name or password', { code: ERR.InvalidCredentials });
      return text(`token.id=${token}\n`);
    }));
    router.all(`${prefix}/isTokenValid`, handle(async (ctx) => {
      const identity = service();
      const token = (await param(ctx, 'tokenid')) ?? (await param(ctx, 'subjectid')) ?? tokenOfHeaders(ctx);
      if (!token) throw new BadRequest('missing parameter tokenid', { code: ERR.MissingParameter });
      return text(`boolean=${(await userOf(identity, token)) !== undefined}\n`);
    }));
    router.all(`${prefix}/attributes`, handle(async (ctx) => {
      const identity = service();
      const token = (await param(ctx, 'subjectid')) ?? tokenOfHeaders(ctx);
      const user = token === undefined ? undefined : await userOf(identity, token);
      if (user === undefined) throw new Unauthorized('the token is missing, unknown, expired or logged out', { code: ERR.InvalidToken });
      return text(`userdetails.token.id=${token}\nuserdetails.attribute.name=uid\nuserdetails.attribute.value=${user}\n`);
    }));
    router.post(`${prefix}/logout`, handle(async (ctx) => {
      const identity = service();
      const token = (await param(ctx, 'subjectid')) ?? tokenOfHeaders(ctx);
      if (!token) throw new BadRequest('missing parameter subjectid', { code: ERR.MissingParameter });
      if (!TOKEN_SHAPE.test(token) || !(await identity.logout(token))) {
        throw new Unauthorized('the token is unknown, expired or already logged out', { code: ERR.InvalidToken });
      }
      return emptyReply();
    }));
  }
  grantRoutes(router, deps);
  return router;
}
