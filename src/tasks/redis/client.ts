// Redis connections of the distributed mode. Commands fail fast while Redis is away (no
// offline queue), so a request answers 503 instead of waiting; before the first command
// a new connection is given a moment to come up.
import IORedis, { type Redis } from 'ioredis';

/** A connection for short commands; errors surface through the commands, not events. */
export function redisClient(url: string): Redis {
  const client = new IORedis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 3000 });
  client.on('error', () => {});
  return client;
}

const pending = new WeakMap<Redis, Promise<void>>();

/** Resolves once `client` is connected, or rejects after `timeoutMs`; callers share one wait. */
export function whenReady(client: Redis, timeoutMs = 3000): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  const waiting = pending.get(client);
  if (waiting) return waiting;
  const wait = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      reject(new Error(`Redis did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    client.once('ready', onReady);
  }).finally(() => pending.delete(client));
  pending.set(client, wait);
  return wait;
}
