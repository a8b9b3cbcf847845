// URIs posted as parameter values (dataset_uri, prediction_feature, dataset_service, ...).
// The interface writes list parameters with literal brackets, also inside a URI that is
// itself a value (SPEC §1 rule 2, §2.1 "may carry a query string such as repeated
// feature_uris[] entries"), and a GET of such a URL is answered; so a URI that a WHATWG URL
// parser reads is accepted here and written as the RFC 3987 IRI it stands for
// (brackets and the other characters RFC 3986 §2 excludes percent-encoded) before it
// reaches a query or a stored triple.
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { checkIri, isValidIri } from '../store/binder.ts';
import { redact } from '../util/redact.ts';
import { withoutCredentials } from './outbound/credentials.ts';

/** Characters an IRI may not hold literally outside the host (RFC 3987 §2.2, RFC 3986 §2). */
const EXCLUDED = /[[\]{}|\\^`"<> ]/g;

const encode = (text: string) => text.replace(EXCLUDED, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));

/** `value` as an absolute IRI, or undefined when no normalisation makes it one. */
export function normaliseUri(value: string): string | undefined {
  // The service later reads these as URLs (to fetch or to split): an IRI that a WHATWG URL
  // parser refuses (host 127.0.0y6x.1, read as a broken IPv4 address) is no URI it can use.
  if (!URL.canParse(value)) return undefined;
  if (isValidIri(value)) return value;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value)) return undefined;
  const url = new URL(value);
  // Only path, query and fragment are re-encoded: the host keeps its own rules (an IPv6
  // literal keeps its brackets), and user-info is left as written.
  const authority = url.href.slice(0, url.href.length - (url.pathname + url.search + url.hash).length);
  const iri = authority + encode(url.pathname) + encode(url.search) + encode(url.hash);
  return isValidIri(iri) ? iri : undefined;
}

/**
 * The parameter `name` as an IRI, without the user-info or token it may carry (never stored,
 * logged, echoed or fetched: src/http/outbound/credentials.ts); 400 InvalidIRI (with a hint)
 * when it cannot be one.
 */
export function readUriParam(value: string, name: string): string {
  const iri = normaliseUri(withoutCredentials(value.trim()));
  if (iri === undefined) {
    checkIri(value.trim(), name);
    throw new BadRequest(`${name} is not a valid absolute IRI: ${JSON.stringify(redact(value).slice(0, 200))}`, { code: ERR.InvalidIRI });
  }
  return iri;
}
