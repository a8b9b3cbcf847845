// Users and tokens for tests of AUTH_MODE=local.
import { UserFile } from '../../src/auth/users.ts';

export const PASSWORDS: Record<string, string> = { alice: 'alice-secret-1', bob: 'bob-secret-22' };

/** Writes the test users into `dataDir` before the app starts. */
export async function addUsers(dataDir: string): Promise<void> {
  const users = new UserFile(dataDir);
  for (const [name, password] of Object.entries(PASSWORDS)) await users.add(name, password);
}

export function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) };
}

/** Logs in through POST {url}{path} and answers the token. */
export async function login(url: string, user: string, path = '/auth/authenticate'): Promise<string> {
  const res = await fetch(url + path, form({ username: user, password: PASSWORDS[user]! }));
  const body = await res.text();
  if (res.status !== 200) throw new Error(`login of ${user} answered ${res.status}: ${body}`);
  return /^token\.id=(.+)$/m.exec(body)![1]!;
}
