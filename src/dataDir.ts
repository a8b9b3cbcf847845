// DATA_DIR is made ready before anything opens a file in it. Missing components are
// created one at a time, never with mkdir's recursive mode: on a file system that refuses
// new directories with ENOENT although the parent exists (procfs, sysfs), Node's recursive
// mkdir retries the parent and the child for ever, and the service would hang at start-up
// instead of saying why it cannot start. A probe file then proves the directory takes files.
import { closeSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';

const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Creates `dir` (and missing parents) and checks that files can be made in it; throws an Error saying why not. */
export function prepareDataDir(dir: string): void {
  const absolute = path.resolve(dir);
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    let isDirectory: boolean | undefined;
    try {
      isDirectory = statSync(existing).isDirectory();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`DATA_DIR ${absolute}: cannot read ${existing}: ${reason(e)}`, { cause: e });
    }
    if (isDirectory === true) break;
    if (isDirectory === false) throw new Error(`DATA_DIR ${absolute}: ${existing} exists and is not a directory`);
    missing.unshift(existing);
    existing = path.dirname(existing);
  }
  for (const component of missing) {
    try {
      mkdirSync(component);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && statSync(component).isDirectory()) continue;
      throw new Error(`DATA_DIR ${absolute}: cannot create ${component} in ${path.dirname(component)}: ${reason(e)}`, { cause: e });
    }
  }
  const probe = path.join(absolute, `.write-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, 'w'));
    unlinkSync(probe);
  } catch (e) {
    throw new Error(`DATA_DIR ${absolute} takes no files: ${reason(e)}`, { cause: e });
  }
}
