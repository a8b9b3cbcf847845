// Uploads a dataset over HTTP and follows the task when the service answers one (SPEC §4.3).
import { readFileSync } from 'node:fs';
import type { TestApp } from './app.ts';

export interface Answer {
  status: number;
  body: string;
}

/** Polls a task URI every `intervalMs` until it leaves 202; answers the final status and uri-list body. */
export async function followTask(taskUri: string, timeoutMs = 900_000, intervalMs = 100): Promise<Answer> {
  const until = Date.now() + timeoutMs;
  for (let failures = 0; ; ) {
    // A kept-alive socket the server closed meanwhile resets once; ask again on a new one.
    const res = await fetch(taskUri, { headers: { Accept: 'text/uri-list' } }).catch((e: Error) => {
      if (++failures > 20) throw e;
      return undefined;
    });
    if (!res) {
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    failures = 0;
    const body = (await res.text()).trim();
    if (res.status !== 202 || Date.now() > until) return { status: res.status, body };
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** POSTs (or PUTs to `target`) a body; answers the dataset URI or the error (a task polled every `intervalMs`). */
export async function uploadDataset(app: Pick<TestApp, 'url'>, body: string | Buffer, type: string, target = app.url + '/dataset', method = 'POST', intervalMs?: number): Promise<Answer> {
  const res = await fetch(target, { method, headers: { 'Content-Type': type, Accept: 'text/uri-list' }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const text = (await res.text()).trim();
  if (res.status === 202) return followTask(text, undefined, intervalMs);
  return { status: res.status, body: text };
}

export const uploadFile = (app: TestApp, file: string, type: string): Promise<Answer> => uploadDataset(app, readFileSync(file), type);

/** Lines of a text/uri-list (or CSV) answer. */
export async function lines(url: string, accept = 'text/uri-list'): Promise<string[]> {
  const res = await fetch(url, { headers: { Accept: accept } });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.text()).split(/\r?\n/).filter(Boolean);
}

/** Warnings (ot:warning) of a dataset. */
export async function warnings(dataset: string): Promise<string[]> {
  const nt = await (await fetch(dataset + '/metadata', { headers: { Accept: 'application/n-triples' } })).text();
  return nt.split('\n').filter((l) => l.includes('api/1.1#warning>')).map((l) => JSON.parse(l.slice(l.indexOf('> "') + 2, l.lastIndexOf('"') + 1)) as string);
}
