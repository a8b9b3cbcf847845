// DATA_DIR is made ready before anything opens a file in it. Missing components are
// created one at a time, never with mkdir's recursive mode: on a file system that refuses
// new directories with ENOENT although the parent exists (procfs, sysfs), Node's recursive
// mkdir retries the parent and the child for ever, and the service would hang at start-up
// instead of saying why it cannot start. A probe file then proves the directory takes files.
// What is created is private (src/files/privateFiles.ts); a DATA_DIR that others can enter
// is made private at start (makeDataDirPrivate).
import { chmodSync, closeSync, lstatSync, mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { openPrivateSync, PRIVATE_DIR } from './files/privateFiles.ts';

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
      mkdirSync(component, PRIVATE_DIR);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && statSync(component).isDirectory()) continue;
      throw new Error(`DATA_DIR ${absolute}: cannot create ${component} in ${path.dirname(component)}: ${reason(e)}`, { cause: e });
    }
  }
  const probe = path.join(absolute, `.write-probe-${process.pid}`);
  try {
    closeSync(openPrivateSync(probe, 'w'));
    unlinkSync(probe);
  } catch (e) {
    throw new Error(`DATA_DIR ${absolute} takes no files: ${reason(e)}`, { cause: e });
  }
}

/** What makeDataDirPrivate changed, and what it could not change (with the reason). */
export interface PrivacyRepair {
  fixed: number;
  unfixable: Array<{ path: string; reason: string }>;
}

const OTHERS = 0o077;

/**
 * What the service keeps directly in DATA_DIR (and its temporary files). Only these are
 * walked: a DATA_DIR set to a directory that holds other things (a home directory) must
 * not have the operator's own files changed; once DATA_DIR is 0700 no one else reaches them.
 */
const OWN = /^(store|structures|uploads|models|search|users\.json.*|tokens\.json.*|\.write-probe-.*)$/;

/**
 * Takes the group and other bits off DATA_DIR and everything of the service's under it when
 * DATA_DIR itself has any: a data directory written before its files were made private (0755
 * and 0644 under the usual umask). Inside a private DATA_DIR no one else reaches a file
 * whatever its mode, so a private one is not walked, and a start costs one stat. Symbolic
 * links are not followed (chmod would change their targets, outside DATA_DIR). What cannot
 * be changed (a file of another owner) is reported, not thrown: the caller logs it.
 */
export function makeDataDirPrivate(dir: string): PrivacyRepair {
  const repair: PrivacyRepair = { fixed: 0, unfixable: [] };
  const root = path.resolve(dir);
  if ((statSync(root).mode & OTHERS) === 0) return repair;
  const pending = [root];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    try {
      // DATA_DIR itself may be a link to the data directory; nothing below it is followed.
      const stat = current === root ? statSync(current) : lstatSync(current);
      if (!stat.isDirectory() && !stat.isFile()) continue;
      if ((stat.mode & OTHERS) !== 0) {
        chmodSync(current, stat.mode & 0o700);
        repair.fixed++;
      }
      if (!stat.isDirectory()) continue;
      for (const name of readdirSync(current)) if (current !== root || OWN.test(name)) pending.push(path.join(current, name));
    } catch (e) {
      // Removed meanwhile (a temp file): nothing left to protect.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') repair.unfixable.push({ path: current, reason: reason(e) });
    }
  }
  return repair;
}
