// AUTH_MODE=opensso: tokens are issued and checked by an external
// OpenSSO/OpenAM service at AUTH_SERVICE_URL, through the REST calls OpenTox clients use:
// POST {url}/identity/authenticate, isTokenValid, attributes (uid) and logout, and, for
// AUTH_READ=owner, authorize (the policy service: uri, action, subjectid → boolean). Answers
// are cached briefly so that a busy client does not cost one remote call per request. The
// calls go through the outbound client (src/http/outbound), which trusts AUTH_SERVICE_URL's
// origin as the operator's choice.
import { createHash } from 'node:crypto';
import { ServiceUnavailable } from '../errors.ts';
import { outboundRequest } from '../http/outbound/client.ts';
import type { OutboundConfig } from '../http/outbound/policy.ts';
import type { IdentityService } from './identity.ts';

const VALID_FOR_MS = 60_000;
const INVALID_FOR_MS = 5_000;
const MAX_CACHED = 10_000;
const TIMEOUT_MS = 10_000;

interface Cached {
  user: string | undefined;
  until: number;
}

/** Value of `key=value` on its own line of an OpenSSO answer. */
export function field(text: string, key: string): string | undefined {
  for (const line of text.split(/\r?\n/)) if (line.startsWith(key + '=')) return line.slice(key.length + 1).trim();
  return undefined;
}

/** The uid of an OpenSSO attributes answer (userdetails.attribute.name=uid, then its value). */
export function uidOf(text: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const at = lines.indexOf('userdetails.attribute.name=uid');
  const value = at < 0 ? undefined : lines[at + 1];
  return value?.startsWith('userdetails.attribute.value=') ? value.slice('userdetails.attribute.value='.length) : undefined;
}

export class OpenSsoIdentity implements IdentityService {
  private readonly cache = new Map<string, Cached>();
  private readonly decisions = new Map<string, { allowed: boolean; until: number }>();
  private readonly base: string;

  constructor(private readonly config: OutboundConfig, private readonly now: () => number = Date.now) {
    this.base = config.authServiceUrl.replace(/\/+$/, '');
  }

  private async post(call: string, form: Record<string, string>): Promise<{ status: number; text: string }> {
    try {
      const res = await outboundRequest(this.config, `${this.base}/identity/${call}`, { method: 'POST', accept: 'text/plain', body: new URLSearchParams(form), timeoutMs: TIMEOUT_MS });
      return { status: res.status, text: res.body.toString('utf8') };
    } catch (e) {
      // The message names the service, never the form (it holds passwords or tokens).
      throw new ServiceUnavailable(`the authentication service ${this.base} cannot be reached`, { details: (e as Error).message });
    }
  }

  async authenticate(user: string, password: string): Promise<string | undefined> {
    const { status, text } = await this.post('authenticate', { username: user, password });
    if (status === 401 || status === 403) return undefined;
    const token = status === 200 ? field(text, 'token.id') : undefined;
    if (!token) throw new ServiceUnavailable(`the authentication service ${this.base} answered ${status} without a token`);
    return token;
  }

  async validate(token: string): Promise<string | undefined> {
    const hit = this.cache.get(token);
    if (hit && hit.until > this.now()) return hit.user;
    const user = await this.lookup(token);
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(token, { user, until: this.now() + (user === undefined ? INVALID_FOR_MS : VALID_FOR_MS) });
    return user;
  }

  private async lookup(token: string): Promise<string | undefined> {
    const valid = await this.post('isTokenValid', { tokenid: token });
    if (valid.status === 401 || valid.status === 403 || field(valid.text, 'boolean') === 'false') return undefined;
    if (valid.status !== 200 || field(valid.text, 'boolean') !== 'true') {
      throw new ServiceUnavailable(`the authentication service ${this.base} answered isTokenValid with ${valid.status}`);
    }
    const attrs = await this.post('attributes', { subjectid: token, attributes_names: 'uid' });
    // A service that does not tell the uid still vouches for the token: a digest of it
    // stands for its holder (never the token itself, which would then be readable).
    return (attrs.status === 200 && uidOf(attrs.text)) || 'token-' + createHash('sha256').update(token).digest('hex').slice(0, 16);
  }

  async authorize(token: string, uri: string, action: 'GET'): Promise<boolean> {
    const key = JSON.stringify([token, uri, action]);
    const hit = this.decisions.get(key);
    if (hit && hit.until > this.now()) return hit.allowed;
    const { status, text } = await this.post('authorize', { uri, action, subjectid: token });
    // Anything but a clear yes is a no: a policy service that fails must not open data.
    const allowed = status === 200 && field(text, 'boolean') === 'true';
    if (this.decisions.size >= MAX_CACHED) this.decisions.clear();
    this.decisions.set(key, { allowed, until: this.now() + (allowed ? VALID_FOR_MS : INVALID_FOR_MS) });
    return allowed;
  }

  async logout(token: string): Promise<boolean> {
    const valid = (await this.validate(token)) !== undefined;
    this.cache.delete(token);
    for (const key of this.decisions.keys()) if (key.startsWith(JSON.stringify([token]).slice(0, -1))) this.decisions.delete(key);
    await this.post('logout', { subjectid: token });
    return valid;
  }
}
