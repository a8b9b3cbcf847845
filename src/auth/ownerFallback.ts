// The generic way owners get recorded: after a successful POST, every URI of
// this service that the response names (Location header, text/uri-list body) and that has
// no owner yet becomes the caller's. This covers new resources, and the task a POST
// started (202 with the task URI), without each domain having to remember it.
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { URI_LIST } from '../rdf/formats.ts';
import { recordOwners } from './owners.ts';

/** URIs a response names: its Location and, for text/uri-list, every line of the body. */
export function urisOfResponse(ctx: Koa.Context): string[] {
  const uris: string[] = [];
  const location = ctx.response.get('Location');
  if (location) uris.push(String(location));
  const body = ctx.body;
  if (ctx.type === URI_LIST && (typeof body === 'string' || Buffer.isBuffer(body))) {
    uris.push(...body.toString().split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
  }
  return uris;
}

export async function recordCreated(deps: Deps, ctx: Koa.Context, user: string): Promise<void> {
  await recordOwners(deps, urisOfResponse(ctx), user);
}
