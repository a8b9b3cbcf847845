// Small helpers for task tests: wait for a state, parse uri-lists.
import N3 from 'n3';
import type { TaskEngine, TaskInfo, TaskStatus } from '../../src/tasks/api.ts';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls the engine until the task has one of `statuses` (fails after `ms`). */
export async function waitForStatus(tasks: TaskEngine, uri: string, statuses: TaskStatus[], ms = 10_000): Promise<TaskInfo> {
  const until = Date.now() + ms;
  for (;;) {
    const t = await tasks.get(uri);
    if (t && statuses.includes(t.status)) return t;
    if (Date.now() > until) throw new Error(`task ${uri} is ${t?.status}, expected ${statuses.join('/')}`);
    await sleep(20);
  }
}

export const uriList = (body: string): string[] => body.split(/\r?\n/).filter(Boolean);

/** Parses a Turtle body; `has` checks one triple, objects given as N3 terms. */
export function turtle(body: string): { store: N3.Store; has: (s: string, p: N3.NamedNode, o: N3.Term) => boolean; value: (s: string, p: N3.NamedNode) => string | undefined } {
  const store = new N3.Store(new N3.Parser({ format: 'text/turtle' }).parse(body));
  return {
    store,
    has: (s, p, o) => store.getQuads(N3.DataFactory.namedNode(s), p, o, null).length > 0,
    value: (s, p) => store.getObjects(N3.DataFactory.namedNode(s), p, null)[0]?.value,
  };
}
