// Local grants (AUTH_MODE=local, AUTH_READ=owner): an owner lets a user or a group read
// one resource. Each grant is a resource of its own, /auth/grants/{id}, kept as triples in
// the private ACL graph beside the owners (never visible through /sparql):
//   <grant> a svc:Grant ; svc:grantOn <resource> ; svc:grantee "bob" | "group:chem" ; svc:grantor "alice" .
import { randomUUID } from 'node:crypto';
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { BadRequest, Forbidden, NotFound } from '../errors.ts';
import { DC, ERR, RDF as RDFNS, SVC, XSD } from '../rdf/vocab.ts';
import { isValidIri } from '../store/binder.ts';
import { aclGraph, ownerOf } from './owners.ts';
import { PRIVATE_PATH } from './policy.ts';
import { GROUP_NAME, USER_NAME } from './users.ts';

const { quad, namedNode, literal } = DataFactory;

type GrantDeps = Pick<Deps, 'config' | 'store'>;

export const GROUP_PREFIX = 'group:';

export interface Grant {
  uri: string;
  resource: string;
  grantee: string;
  grantor: string;
}

/** The grantee names a request of `user` in `groups` matches: the user and each `group:NAME`. */
export const granteesOf = (user: string, groups: readonly string[]): string[] => [user, ...groups.map((g) => GROUP_PREFIX + g)];

function checkGrantee(grantee: string): string {
  const ok = grantee.startsWith(GROUP_PREFIX) ? GROUP_NAME.test(grantee.slice(GROUP_PREFIX.length)) : USER_NAME.test(grantee);
  if (!ok) {
    throw new BadRequest(`grantee ${JSON.stringify(grantee.slice(0, 100))} is neither a user name nor group:NAME`, {
      code: ERR.InvalidParameter,
      details: 'Names take letters, digits and . _ @ - (at most 64); a group is written group:NAME.',
    });
  }
  return grantee;
}

function grantOf(uri: string, quads: readonly RDF.Quad[]): Grant | undefined {
  const value = (p: RDF.NamedNode) => quads.find((q) => q.predicate.equals(p))?.object.value;
  const resource = value(SVC.grantOn);
  const grantee = value(SVC.grantee);
  const grantor = value(SVC.grantor);
  return resource && grantee && grantor ? { uri, resource, grantee, grantor } : undefined;
}

/** The grant at `uri`, or undefined. */
export async function readGrant(deps: GrantDeps, uri: string): Promise<Grant | undefined> {
  if (!isValidIri(uri)) return undefined;
  return grantOf(uri, await deps.store.match(namedNode(uri), null, null, aclGraph(deps.config)));
}

/** Every grant on `resource`. */
async function grantsOn(deps: GrantDeps, resource: string): Promise<Grant[]> {
  const subjects = await deps.store.match(null, SVC.grantOn, namedNode(resource), aclGraph(deps.config));
  const grants = await Promise.all(subjects.map((q) => readGrant(deps, q.subject.value)));
  return grants.filter((g): g is Grant => g !== undefined);
}

/** Whether any of `grantees` holds a grant on `resource`. */
export async function isGranted(deps: GrantDeps, resource: string, grantees: readonly string[]): Promise<boolean> {
  return (await grantsOn(deps, resource)).some((g) => grantees.includes(g.grantee));
}

/**
 * `grantor` lets `grantee` read `resource`, which `grantor` must own; answers the grant and
 * whether it is new (the same grant twice is one grant).
 */
export async function createGrant(deps: GrantDeps, resource: string, grantee: string, grantor: string): Promise<{ grant: Grant; created: boolean }> {
  const base = deps.config.baseUrl;
  const path = resource.startsWith(base + '/') ? resource.slice(base.length) : undefined;
  if (path === undefined || !isValidIri(resource) || !PRIVATE_PATH.test(path) || path.startsWith('/task/')) {
    throw new BadRequest(`resource ${JSON.stringify(resource.slice(0, 200))} is not a dataset, model, validation or feature of this service`, { code: ERR.InvalidParameter });
  }
  checkGrantee(grantee);
  const owner = await ownerOf(deps, resource);
  if (owner === undefined) throw new BadRequest(`${resource} has no owner: every user reads it already`, { code: ERR.InvalidParameter });
  if (owner !== grantor) throw new Forbidden(`${resource} belongs to another user: only its owner grants access to it`);
  const existing = (await grantsOn(deps, resource)).find((g) => g.grantee === grantee);
  if (existing) return { grant: existing, created: false };
  const uri = uriOf(deps.config, `/auth/grants/${randomUUID()}`);
  const node = namedNode(uri);
  await deps.store.addToGraph(aclGraph(deps.config), [
    quad(node, RDFNS.type, SVC.Grant),
    quad(node, SVC.grantOn, namedNode(resource)),
    quad(node, SVC.grantee, literal(grantee)),
    quad(node, SVC.grantor, literal(grantor)),
    quad(node, DC.date, literal(new Date().toISOString(), XSD.dateTime)),
  ]);
  return { grant: { uri, resource, grantee, grantor }, created: true };
}

/** Grants `user` made or holds (directly or through one of `groups`). */
export async function grantsOf(deps: GrantDeps, user: string, groups: readonly string[]): Promise<Grant[]> {
  const acl = aclGraph(deps.config);
  const subjects = new Set<string>();
  for (const q of await deps.store.match(null, SVC.grantor, literal(user), acl)) subjects.add(q.subject.value);
  for (const who of granteesOf(user, groups)) for (const q of await deps.store.match(null, SVC.grantee, literal(who), acl)) subjects.add(q.subject.value);
  const grants = await Promise.all([...subjects].sort().map((s) => readGrant(deps, s)));
  return grants.filter((g): g is Grant => g !== undefined);
}

/** The triples of a grant, to answer GET with (they live in the ACL graph, never served whole). */
export async function grantQuads(deps: GrantDeps, uri: string): Promise<RDF.Quad[]> {
  return (await deps.store.match(namedNode(uri), null, null, aclGraph(deps.config))).map((q) => quad(q.subject, q.predicate, q.object));
}

/** `user` revokes the grant at `uri`: the grantor, or whoever owns the resource now. */
export async function revokeGrant(deps: GrantDeps, uri: string, user: string): Promise<void> {
  const grant = await readGrant(deps, uri);
  if (!grant) throw new NotFound(`no grant ${uri}`);
  if (grant.grantor !== user && (await ownerOf(deps, grant.resource)) !== user) throw new Forbidden(`${uri} was made by another user: only its grantor revokes it`);
  await deps.store.removeFromGraph(aclGraph(deps.config), await deps.store.match(namedNode(uri), null, null, aclGraph(deps.config)));
}

/** Drops every grant on a deleted resource, so a later resource at the same URI starts private. */
export async function forgetGrants(deps: GrantDeps, resource: string): Promise<void> {
  const acl = aclGraph(deps.config);
  for (const grant of await grantsOn(deps, resource)) await deps.store.removeFromGraph(acl, await deps.store.match(namedNode(grant.uri), null, null, acl));
}
