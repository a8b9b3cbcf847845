// Small helpers for task tests: wait for a state, parse uri-lists.
import type { TaskEngine, TaskInfo, TaskStatus } from '../../src/tasks/api.ts';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls the engine until the task has one of `statuses` (fails after `ms`). */
export async function waitForStatus(tasks: TaskEngine, uri: string, statuses: TaskStatus[], ms = 10_000): Promise<TaskInfo> {
  const until = Date.now() + ms;
  for (;;) {
    const t = tasks.get(uri);
    if (t && statuses.includes(t.status)) return t;
    if (Date.now() > until) throw new Error(`task ${uri} is ${t?.status}, expected ${statuses.join('/')}`);
    await sleep(20);
  }
}

export const uriList = (body: string): string[] => body.split(/\r?\n/).filter(Boolean);
