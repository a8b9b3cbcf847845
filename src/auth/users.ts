// The local user file DATA_DIR/users.json: passwords only as salted scrypt
// hashes, compared in constant time. Managed by `npm run user`; read at each login, so
// users added while the service runs can log in at once.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { readJson, writeJsonAtomic } from './jsonFile.ts';

interface UserRecord {
  salt: string;
  hash: string;
  /** scrypt cost parameters, kept per user so they can be raised later. */
  N: number;
  r: number;
  p: number;
  created: string;
  /** Groups the user belongs to, for grants to `group:NAME` (AUTH_READ=owner). */
  groups?: string[];
}

interface UserFileData {
  users: Record<string, UserRecord>;
}

const KEY_LENGTH = 64;
const COST = { N: 16384, r: 8, p: 1 };
export const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
/** Group names follow the user name rule. */
export const GROUP_NAME = USER_NAME;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password, salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export class UserFile {
  readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'users.json');
  }

  private read(): UserFileData {
    const data = readJson<UserFileData>(this.file, { users: {} });
    return { users: data.users ?? {} };
  }

  private cached: { mtimeMs: number; groups: Map<string, string[]> } | undefined;

  /** Users and their groups; re-reads the file only when it changed (checked per request). */
  private current(): Map<string, string[]> {
    let mtimeMs = -1;
    try {
      mtimeMs = statSync(this.file).mtimeMs;
    } catch {
      // No file: no users.
    }
    if (this.cached?.mtimeMs !== mtimeMs) {
      const users = mtimeMs < 0 ? {} : this.read().users;
      this.cached = { mtimeMs, groups: new Map(Object.entries(users).map(([name, r]) => [name, r.groups ?? []])) };
    }
    return this.cached.groups;
  }

  /** Whether `name` exists. */
  has(name: string): boolean {
    return this.current().has(name);
  }

  /** The groups of `name` (none for an unknown user). */
  groupsOf(name: string): string[] {
    return this.current().get(name) ?? [];
  }

  /** Adds `name` to `group` (true) or removes it (false); answers whether the user exists. */
  setGroup(name: string, group: string, member: boolean): boolean {
    if (!GROUP_NAME.test(group)) throw new Error(`invalid group name "${group}": use letters, digits and . _ @ - (at most 64)`);
    const data = this.read();
    const record = data.users[name];
    if (!record) return false;
    const groups = new Set(record.groups ?? []);
    if (member) groups.add(group);
    else groups.delete(group);
    record.groups = [...groups].sort();
    writeJsonAtomic(this.file, data);
    return true;
  }

  list(): string[] {
    return Object.keys(this.read().users).sort();
  }

  /** Adds a user or replaces the password of an existing one; answers whether it was new. */
  async add(name: string, password: string): Promise<boolean> {
    if (!USER_NAME.test(name)) throw new Error(`invalid user name "${name}": use letters, digits and . _ @ - (at most 64)`);
    if (password.length < 8) throw new Error('the password must have at least 8 characters');
    const salt = randomBytes(16);
    const hash = await scrypt(password, salt, COST);
    const data = this.read();
    const isNew = !(name in data.users);
    const groups = data.users[name]?.groups;
    data.users[name] = { salt: salt.toString('base64'), hash: hash.toString('base64'), ...COST, created: new Date().toISOString(), ...(groups ? { groups } : {}) };
    writeJsonAtomic(this.file, data);
    return isNew;
  }

  remove(name: string): boolean {
    const data = this.read();
    if (!(name in data.users)) return false;
    delete data.users[name];
    writeJsonAtomic(this.file, data);
    return true;
  }

  /** True when `password` is the user's. Unknown users cost the same time as known ones. */
  async verify(name: string, password: string): Promise<boolean> {
    const record = this.read().users[name];
    const salt = record ? Buffer.from(record.salt, 'base64') : randomBytes(16);
    const cost = record ? { N: record.N, r: record.r, p: record.p } : COST;
    const key = await scrypt(password, salt, cost);
    if (!record) return false;
    const expected = Buffer.from(record.hash, 'base64');
    return expected.length === key.length && timingSafeEqual(expected, key);
  }
}
