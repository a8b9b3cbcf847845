// Who owns a resource: one `<resource> ot:owner "user"` triple per resource
// in a single private ACL graph. Domains call recordOwner when they create a resource;
// the auth middleware also records the caller for URIs a POST answered (ownerFallback.ts).
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { OT } from '../rdf/vocab.ts';
import { isValidIri } from '../store/binder.ts';

const { quad, namedNode, literal } = DataFactory;

type OwnerDeps = Pick<Deps, 'config' | 'store'>;

/** The graph holding every owner triple. */
export const aclGraph = (config: Deps['config']): string => uriOf(config, '/auth/owners');

/**
 * The owner of `uri`, or undefined when nobody owns it (created with auth off, built in).
 * The ACL graph decides; a domain that keeps `<uri> ot:owner "user"` in the resource's own
 * graph (compounds do) is honoured too.
 */
export async function ownerOf(deps: OwnerDeps, uri: string): Promise<string | undefined> {
  if (!isValidIri(uri)) return undefined;
  const node = namedNode(uri);
  const found = await deps.store.match(node, OT.owner, null, aclGraph(deps.config));
  const [acl] = found;
  if (acl) return acl.object.value;
  const [inline] = await deps.store.match(node, OT.owner, null, uri);
  return inline?.object.value;
}

/** Records `user` as owner of `uri` unless it already has an owner; answers whether it wrote. */
export async function recordOwner(deps: OwnerDeps, uri: string, user: string | undefined): Promise<boolean> {
  if (!user || (await ownerOf(deps, uri)) !== undefined) return false;
  await deps.store.addToGraph(aclGraph(deps.config), [quad(namedNode(uri), OT.owner, literal(user))]);
  return true;
}

/** Records `user` as owner of each URI of this service in `uris` (a job's result) that has none. */
export async function recordOwners(deps: OwnerDeps, uris: string | string[] | undefined, user: string | undefined): Promise<void> {
  if (!user || uris === undefined) return;
  const base = deps.config.baseUrl + '/';
  for (const uri of Array.isArray(uris) ? uris : [uris]) {
    if (typeof uri === 'string' && uri.startsWith(base) && isValidIri(uri)) await recordOwner(deps, uri, user);
  }
}

/** Forgets the owner of a deleted resource, so the ACL graph does not grow with dead URIs. */
export async function forgetOwner(deps: OwnerDeps, uri: string): Promise<void> {
  const found = await deps.store.match(namedNode(uri), OT.owner, null, aclGraph(deps.config));
  if (found.length) await deps.store.removeFromGraph(aclGraph(deps.config), found);
}
