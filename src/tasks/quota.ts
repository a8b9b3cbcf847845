// Per-client quota on live jobs (Queued or Running): one client cannot fill the queue that
// every client shares (SPEC §3 Rejected is for the whole service; this is per caller).
// The client is the authenticated user, else the address (`Caller.client`); routes pass it
// in TaskMeta. It is passed, not found from the request's async context: AsyncLocalStorage
// makes Node 20 run a hook on every promise, a tenth of the cost of a cached GET.
import { HttpError } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { rateLimitHeaders } from '../http/rateLimitFields.ts';

/** Seconds a refused client is told to wait: about the time a small job takes. */
const RETRY_AFTER_S = 5;

export class JobQuota {
  private readonly byClient = new Map<string, Set<string>>();
  private readonly clientOf = new Map<string, string>();

  /** Counts job `uri` against `client`; 429 when the client already has `limit` live jobs (0 = no quota). */
  acquire(client: string, uri: string, limit: number): void {
    const live = this.byClient.get(client) ?? new Set<string>();
    if (limit > 0 && live.size >= limit) {
      throw new HttpError(429, ERR.JobQuotaExceeded, `${client} already has ${live.size} jobs queued or running: the limit JOB_QUOTA is ${limit}`, {
        // A quota of jobs at once, not per window (draft-ietf-httpapi-ratelimit-headers: qu).
        headers: rateLimitHeaders({ name: 'jobs', quota: limit, unit: 'concurrent-requests' }, 0, RETRY_AFTER_S),
        details: `No task was created. Wait for some of your tasks to finish (or cancel them), then submit again after ${RETRY_AFTER_S} seconds.`,
      });
    }
    live.add(uri);
    this.byClient.set(client, live);
    this.clientOf.set(uri, client);
  }

  /** The job is over (or was never created): it no longer counts. */
  release(uri: string): void {
    const client = this.clientOf.get(uri);
    if (client === undefined) return;
    this.clientOf.delete(uri);
    const live = this.byClient.get(client);
    live?.delete(uri);
    if (live?.size === 0) this.byClient.delete(client);
  }
}
