// What a request needs when auth is on, as a pure table of method and
// path. The middleware enforces it: 'public' lets anyone through, 'user' needs a valid
// token (401), 'owner' needs a valid token and, if the resource or the nearest resource
// above it has an owner, that owner's token (403).
export type Requirement = 'public' | 'user' | 'owner';

export interface PolicyOptions {
  /** AUTH_READ: whether reading collections needs a token. */
  read: 'public' | 'authenticated';
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Paths of the authentication service itself: logging in cannot need a token. */
export const isAuthPath = (path: string): boolean => /^\/(auth|opensso)(\/|$)/.test(path);

export function requirement(method: string, path: string, options: PolicyOptions): Requirement {
  if (isAuthPath(path)) return 'public';
  // SPEC §4.3, §5.2: access to tasks is restricted; each task only to its owner.
  if (/^\/task\/?$/.test(path)) return 'user';
  if (/^\/task\/./.test(path)) return 'owner';
  // Reading, and querying /sparql (a read: it only sees the graphs the caller may read).
  if (SAFE.has(method) || /^\/sparql\/?$/.test(path)) return options.read === 'public' ? 'public' : 'user';
  // Applying an algorithm or a model uses it without changing it (SPEC §4.1).
  if (method === 'POST' && /^\/(algorithm|model)\/./.test(path)) return 'user';
  return 'owner';
}

/** The path and every path above it, nearest first: /a/b/c, /a/b, /a. */
export function pathAndAncestors(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  const out: string[] = [];
  for (let n = parts.length; n > 0; n--) out.push('/' + parts.slice(0, n).join('/'));
  return out;
}
