// Who holds a token: the built-in service (AUTH_MODE=local, below) or an external
// OpenSSO/OpenAM (AUTH_MODE=opensso, opensso.ts); identityOf.ts picks one. The middleware
// and /auth routes only see this interface.
import { TokenStore } from './tokens.ts';
import { UserFile } from './users.ts';

export interface IdentityService {
  /** A new token for valid credentials; undefined for a wrong user name or password. */
  authenticate(user: string, password: string): Promise<string | undefined>;
  /** The user a token belongs to; undefined when it is unknown, expired or logged out. */
  validate(token: string): Promise<string | undefined>;
  /** Invalidates a token; answers whether it was valid. */
  logout(token: string): Promise<boolean>;
  /** Groups of a user, for local grants to `group:NAME` (AUTH_READ=owner). */
  groupsOf?(user: string): string[];
  /**
   * An external policy service's answer to "may the holder of `token` GET `uri`?"
   * (AUTH_READ=owner); without it, grants are kept here (src/auth/grants.ts).
   */
  authorize?(token: string, uri: string, action: 'GET'): Promise<boolean>;
}

export class LocalIdentity implements IdentityService {
  readonly users: UserFile;
  readonly tokens: TokenStore;

  constructor(dataDir: string, ttlSeconds: number, now: () => number = Date.now) {
    this.users = new UserFile(dataDir);
    this.tokens = new TokenStore(dataDir, ttlSeconds, now);
  }

  async authenticate(user: string, password: string): Promise<string | undefined> {
    return (await this.users.verify(user, password)) ? this.tokens.issue(user) : undefined;
  }

  async validate(token: string): Promise<string | undefined> {
    const user = this.tokens.userOf(token);
    // A user removed with `npm run user -- remove` loses the tokens already issued.
    return user !== undefined && this.users.has(user) ? user : undefined;
  }

  async logout(token: string): Promise<boolean> {
    return this.tokens.revoke(token);
  }

  groupsOf(user: string): string[] {
    return this.users.groupsOf(user);
  }
}
