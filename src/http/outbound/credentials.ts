// Credentials never travel inside a URI: a token in the query (subjectid=…, as some OpenTox
// clients write it) or user-info (http://user:secret@host/) is removed from a URI a client
// sent before it is stored, logged, echoed or fetched, and from every URI the service calls.

import { isTokenParam } from '../tokenParams.ts';

const isCredential = (piece: string): boolean => {
  const name = piece.split('=')[0] ?? '';
  try {
    return isTokenParam(decodeURIComponent(name.replace(/\+/g, ' ')));
  } catch {
    return false;
  }
};

/**
 * `uri` without user-info and without credential parameters in its query; every other part
 * is kept as written (feature_uris[] keep their brackets). A URI that does not parse is
 * answered unchanged: it is refused elsewhere.
 */
export function withoutCredentials(uri: string): string {
  if (!URL.canParse(uri)) return uri;
  const url = new URL(uri);
  if (!url.username && !url.password && !url.search.slice(1).split('&').some(isCredential)) return uri;
  let text = uri;
  if (url.username || url.password) text = text.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/, '$1');
  const query = /\?([^#]*)/.exec(text);
  if (query) {
    const kept = query[1]!.split('&').filter((p) => p && !isCredential(p)).join('&');
    text = text.slice(0, query.index) + (kept ? `?${kept}` : '') + text.slice(query.index + query[0].length);
  }
  return text;
}

/** The same as a URL, for the links a page or a list writes from the request's URL. */
export const withoutTokens = (url: string | URL): URL => new URL(withoutCredentials(String(url)));
