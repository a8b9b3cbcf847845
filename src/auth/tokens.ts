// Tokens issued by the built-in authentication service. A token is 32
// random bytes; only its SHA-256 is kept, in DATA_DIR/tokens.json written atomically, so
// tokens survive a restart until they expire and a copy of the file grants nothing.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { readJson, writeJsonAtomic } from './jsonFile.ts';

interface Session {
  user: string;
  /** Expiry, in milliseconds since the epoch. */
  expires: number;
}

type TokenFileData = Record<string, Session>;

const digest = (token: string): string => createHash('sha256').update(token).digest('base64url');

/**
 * The shape OpenSSO tokens have ("AQIC" + printable characters): clients that check the
 * prefix accept ours. base64url keeps them safe in a query string and in curl -d.
 */
const mint = (): string => 'AQIC' + randomBytes(32).toString('base64url');

export class TokenStore {
  private readonly file: string;
  private readonly sessions: Map<string, Session>;

  constructor(dataDir: string, private readonly ttlSeconds: number, private readonly now: () => number = Date.now) {
    this.file = path.join(dataDir, 'tokens.json');
    this.sessions = new Map(Object.entries(readJson<TokenFileData>(this.file, {})));
    this.purge();
  }

  /** A new token for `user`, durable before it is returned. */
  issue(user: string): string {
    const token = mint();
    this.purge();
    this.sessions.set(digest(token), { user, expires: this.now() + this.ttlSeconds * 1000 });
    this.save();
    return token;
  }

  /** The user of a valid token; undefined when it is unknown, expired or logged out. */
  userOf(token: string): string | undefined {
    const key = digest(token);
    const session = this.sessions.get(key);
    if (!session) return undefined;
    if (session.expires <= this.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    return session.user;
  }

  /** Invalidates a token; answers whether it was valid. */
  revoke(token: string): boolean {
    const valid = this.userOf(token) !== undefined;
    if (this.sessions.delete(digest(token))) this.save();
    return valid;
  }

  private purge(): void {
    const now = this.now();
    for (const [key, s] of this.sessions) if (s.expires <= now) this.sessions.delete(key);
  }

  private save(): void {
    writeJsonAtomic(this.file, Object.fromEntries(this.sessions));
  }
}
