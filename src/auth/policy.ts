// What a request needs when auth is on, as a pure table of method and
// path. The middleware enforces it: 'public' lets anyone through, 'user' needs a valid
// token (401), 'owner' needs a valid token and, if the resource or the nearest resource
// above it has an owner, that owner's token (403); 'reader' (AUTH_READ=owner) needs a valid
// token and, if that owner exists, the owner's or a grantee's (403, readAccess.ts).
export type Requirement = 'public' | 'user' | 'reader' | 'owner';

export interface PolicyOptions {
  /** AUTH_READ: whether reading needs a token, and whether it needs the owner's leave. */
  read: 'public' | 'authenticated' | 'owner';
}

/**
 * Resources whose owners decide who reads them under AUTH_READ=owner. Compounds are not:
 * a compound is shared chemical identity (the same structure posted by two users answers
 * the same URI), so any user reads it; nor are algorithms and the ontology (built in).
 */
export const PRIVATE_PATH = /^\/(dataset|model|validation|feature|task)\/[^/]/;

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Paths of the authentication service itself: logging in cannot need a token. */
export const isAuthPath = (path: string): boolean => /^\/(auth|opensso)(\/|$)/.test(path);

export function requirement(method: string, path: string, options: PolicyOptions): Requirement {
  if (isAuthPath(path)) return 'public';
  // SPEC §4.3, §5.2: access to tasks is restricted; each task only to its owner.
  if (/^\/task\/?$/.test(path)) return 'user';
  if (/^\/task\/./.test(path)) return 'owner';
  // Reading, and querying /sparql (a read: it only sees the graphs the caller may read).
  const read = options.read === 'public' ? 'public' : options.read === 'owner' && PRIVATE_PATH.test(path) ? 'reader' : 'user';
  if (SAFE.has(method) || /^\/sparql\/?$/.test(path)) return read;
  // Applying an algorithm or a model uses it without changing it (SPEC §4.1); a private
  // model's predictions are as private as the model.
  if (method === 'POST' && /^\/(algorithm|model)\/./.test(path)) return read === 'reader' ? 'reader' : 'user';
  return 'owner';
}

/** The path and every path above it, nearest first: /a/b/c, /a/b, /a. */
export function pathAndAncestors(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  const out: string[] = [];
  for (let n = parts.length; n > 0; n--) out.push('/' + parts.slice(0, n).join('/'));
  return out;
}
