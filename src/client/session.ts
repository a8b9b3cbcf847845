// Where the client talks to: the service's base URI and the caller's token (SPEC §1 rule 7:
// sent as the subjectid header), from OPENTOX_TOKEN or a token saved by `opentox login`.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Session {
  service: string;
  token?: string;
}

const tokenFile = (): string => path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'opentox', 'tokens.json');

function savedTokens(): Record<string, string> {
  try {
    return JSON.parse(readFileSync(tokenFile(), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

export function saveToken(service: string, token: string): string {
  const file = tokenFile();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...savedTokens(), [service]: token }, null, 2), { mode: 0o600 });
  // A file written before with wider permissions keeps them on overwrite.
  chmodSync(file, 0o600);
  return file;
}

export function sessionOf(service: string): Session {
  const base = service.replace(/\/+$/, '');
  return { service: base, token: process.env.OPENTOX_TOKEN || savedTokens()[base] };
}

/** Headers every request carries: the token, and what the caller asked for. */
export function headers(session: Session, extra: Record<string, string> = {}): Record<string, string> {
  return { ...(session.token ? { subjectid: session.token } : {}), ...extra };
}
