// isAbsoluteIri promises that the store will accept what it accepts (src/rdf/iri.ts): a
// write is checked with it before it reaches the journal. Oxigraph's own IRI parser is the
// oracle here, on plain http IRIs (the shortcut's ground) and on near misses of them.
import { expect } from 'chai';
import fc from 'fast-check';
import * as ox from 'oxigraph';
import { isAbsoluteIri } from '../../../src/rdf/iri.ts';

const storeAccepts = (value: string): boolean => {
  try {
    ox.namedNode(value);
    return true;
  } catch {
    return false;
  }
};

// Characters of plain IRIs and the ones that break them (space, brackets, a second #, a
// bare %, quotes, non-ASCII).
const piece = fc.string({ unit: fc.constantFrom(...'aZ09-._~!$&\'()*+,;=:@/?#%[] "<>{}|\\^`é€'.split('')), maxLength: 12 });
const candidate = fc.tuple(fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'http:/', ''), fc.constantFrom('localhost', 'localhost:8080', 'example.org', 'a.b-c', '127.0.0.1:80', '', 'ex ample', '[::1]'), piece, piece)
  .map(([scheme, host, path, rest]) => `${scheme}${host}/${path}${rest}`);

describe('isAbsoluteIri', () => {
  it('accepts what the store accepts among plain http IRIs, and refuses their near misses', () => {
    for (const ok of ['http://localhost:8080/compound/12', 'https://example.org/a/b?x=1&y=2#frag', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', 'http://example.org/feature/%C3%A9', 'http://example.org/é']) {
      expect(isAbsoluteIri(ok), ok).to.equal(true);
    }
    for (const bad of ['http://example.org/a b', 'http://example.org/d?feature_uris[]=1', 'http://example.org/a#b#c', 'http://example.org/%zz', 'http://:a', 'http://a:b', 'compound/12', '']) {
      expect(isAbsoluteIri(bad), bad).to.equal(false);
    }
  });

  it('never accepts an IRI the store would refuse', () => {
    fc.assert(fc.property(candidate, (iri) => !isAbsoluteIri(iri) || storeAccepts(iri)), { numRuns: 20_000 });
  });

  it('agrees with the store on plain http IRIs', () => {
    const plain = fc.tuple(fc.constantFrom('http://localhost:8080', 'https://example.org'), fc.string({ unit: fc.constantFrom(...'aZ09-._~!$&\'()*+,;=:@/?#'.split('')), maxLength: 30 }))
      .map(([base, rest]) => `${base}/${rest}`);
    fc.assert(fc.property(plain, (iri) => isAbsoluteIri(iri) === storeAccepts(iri)), { numRuns: 20_000 });
  });
});
