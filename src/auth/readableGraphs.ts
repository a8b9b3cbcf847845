// The graphs a caller may query through /sparql: the SPARQL endpoint takes an
// allow-list (DatasetRequest.graphs). Everything readable over REST is in it; tasks only
// for their owner (SPEC §4.3: access to tasks is restricted), and never the ACL graph.
// Under AUTH_READ=owner only the resources the caller may read (readAccess.ts).
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { aclGraph } from './owners.ts';
import { bound } from '../store/api.ts';
import type { ReadAccess } from './readAccess.ts';

/** Graph IRIs `user` may query; undefined (no restriction) when auth is off. */
export async function readableGraphs(deps: Pick<Deps, 'config' | 'store' | 'identity'>, user: string | undefined, access?: ReadAccess): Promise<string[] | undefined> {
  if (!deps.identity) return undefined;
  const acl = aclGraph(deps.config);
  const hidden = new Set([acl]);
  for (const row of await deps.store.select('auth-task-owners', { acl: DataFactory.namedNode(acl) })) {
    // A task created while auth was off has no owner: like GET /task/{id}, any user may read it.
    if (user === undefined || (row.owner !== undefined && row.owner.value !== user)) hidden.add(bound(row, 'task'));
  }
  const graphs = (await deps.store.select('auth-graphs')).map((r) => bound(r, 'g')).filter((g) => !hidden.has(g));
  if (!access) return graphs;
  await access.preload();
  const readable: string[] = [];
  for (const g of graphs) if (await access.mayRead(g)) readable.push(g);
  return readable;
}
