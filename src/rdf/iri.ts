// Absolute IRIs as RFC 3987 defines them. The store's parser (Oxigraph) refuses anything
// else, e.g. an unescaped `[` in a query string or a second `#`, so bodies are checked
// here first and a bad IRI answers 400 naming it instead of failing inside a write.
const UCS = '\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}\\u{10000}-\\u{1FFFD}\\u{20000}-\\u{2FFFD}\\u{30000}-\\u{3FFFD}\\u{40000}-\\u{4FFFD}\\u{50000}-\\u{5FFFD}\\u{60000}-\\u{6FFFD}\\u{70000}-\\u{7FFFD}\\u{80000}-\\u{8FFFD}\\u{90000}-\\u{9FFFD}\\u{A0000}-\\u{AFFFD}\\u{B0000}-\\u{BFFFD}\\u{C0000}-\\u{CFFFD}\\u{D0000}-\\u{DFFFD}\\u{E1000}-\\u{EFFFD}';
const PRIVATE = '\\u{E000}-\\u{F8FF}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}';
const UNRESERVED = `A-Za-z0-9\\-._~${UCS}`;
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = '%[0-9A-Fa-f]{2}';
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*`;
const HOST = `(?:\\[[0-9A-Fa-f:.vV]+\\]|(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*)`;
const AUTHORITY = `(?:${USERINFO}@)?${HOST}(?::[0-9]*)?`;
// ihier-part: an authority and its path, or a path that does not start with "//" (RFC 3987 §2.2).
const HIER = `(?://${AUTHORITY}(?:/${PCHAR}*)*|/(?:${PCHAR}+(?:/${PCHAR}*)*)?|${PCHAR}+(?:/${PCHAR}*)*|)`;
const QUERY = `(?:${PCHAR}|[/?${PRIVATE}])*`;
const FRAGMENT = `(?:${PCHAR}|[/?])*`;
const IRI = new RegExp(`^[A-Za-z][A-Za-z0-9+.-]*:${HIER}(?:\\?${QUERY})?(?:#${FRAGMENT})?$`, 'u');

// The IRIs a write carries are nearly all plain ASCII http(s) IRIs: this service's own and
// the vocabularies'. This expression accepts a subset of the grammar above (a registered
// name or IPv4 host of letters, digits, dots and hyphens; path, query and fragment
// characters without percent-encodings), so that a match is an IRI without the cost of the
// Unicode expression, which a compound's record otherwise runs some thirty times.
const PLAIN_PCHAR = "A-Za-z0-9\\-._~!$&'()*+,;=:@";
const PLAIN_HTTP = new RegExp(`^https?://[A-Za-z0-9.-]*(?::[0-9]*)?(?:/[${PLAIN_PCHAR}]*)*(?:\\?[${PLAIN_PCHAR}/?]*)?(?:#[${PLAIN_PCHAR}/?]*)?$`);

/** True when `value` is an absolute IRI (RFC 3987 §2.2) the store will accept. */
export function isAbsoluteIri(value: string): boolean {
  return PLAIN_HTTP.test(value) || IRI.test(value);
}

/** A hint for the commonest mistakes, for error details. */
export function iriHint(value: string): string | undefined {
  if (/[[\]]/.test(value)) return 'Percent-encode "[" and "]" outside the host as %5B and %5D (e.g. feature_uris%5B%5D=...).';
  if (/\s/.test(value)) return 'Percent-encode spaces as %20.';
  if ((value.match(/#/g) ?? []).length > 1) return 'An IRI has at most one "#"; percent-encode the others as %23.';
  if (/%(?![0-9A-Fa-f]{2})/.test(value)) return 'A "%" must start a percent-encoding such as %25.';
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return 'Relative IRIs are not accepted here; give an absolute IRI with a scheme such as http:.';
  return undefined;
}
