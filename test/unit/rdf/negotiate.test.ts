// negotiate() as a table (STYLE §10): q-values, type/*, */*, and the default for an empty or
// unservable Accept (SPEC §1 rule 5, §7.1 last line).
import { expect } from 'chai';
import { negotiate, syntaxOf, RDF_MEDIA_TYPES, URI_LIST } from '../../../src/rdf/formats.ts';

const RDF_AND_LIST = [...RDF_MEDIA_TYPES, URI_LIST];

const TABLE: Array<[accept: string | undefined, expected: string]> = [
  [undefined, 'application/rdf+xml'],
  ['', 'application/rdf+xml'],
  ['   ', 'application/rdf+xml'],
  ['*/*', 'application/rdf+xml'],
  ['application/rdf+xml', 'application/rdf+xml'],
  ['text/turtle', 'text/turtle'],
  ['application/n-triples', 'application/n-triples'],
  ['text/plain', 'text/plain'],
  ['text/n3', 'text/n3'],
  ['application/ld+json', 'application/ld+json'],
  ['text/uri-list', 'text/uri-list'],
  ['TEXT/Turtle', 'text/turtle'],
  ['text/turtle; charset=utf-8', 'text/turtle'],
  ['text/*', 'text/turtle'],
  ['application/*', 'application/rdf+xml'],
  ['image/png', 'application/rdf+xml'],
  ['chemical/x-mdl-sdfile, image/*', 'application/rdf+xml'],
  ['not a media type', 'application/rdf+xml'],
  ['text/turtle;q=0.5, application/ld+json;q=0.9', 'application/ld+json'],
  ['text/turtle;q=0.9, application/ld+json;q=0.5', 'text/turtle'],
  ['application/rdf+xml;q=0, */*', 'text/turtle'],
  ['text/turtle;q=0', 'application/rdf+xml'],
  ['text/*;q=0.3, text/n3', 'text/n3'],
  ['application/json;q=1, text/uri-list;q=0.8', 'text/uri-list'],
  ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/rdf+xml'],
  ['text/uri-list;q=0.1, application/rdf+xml;q=0.2', 'application/rdf+xml'],
];

describe('negotiate(): Accept → media type', () => {
  for (const [accept, expected] of TABLE) {
    it(`${JSON.stringify(accept)} → ${expected}`, () => {
      expect(negotiate(accept, RDF_AND_LIST)).to.equal(expected);
    });
  }

  it('a reply whose default is text/uri-list keeps it for */*', () => {
    expect(negotiate('*/*', [URI_LIST, ...RDF_MEDIA_TYPES])).to.equal(URI_LIST);
  });
});

describe('syntaxOf(): Content-Type → parser', () => {
  const table: Array<[string, string | undefined]> = [
    ['application/rdf+xml', 'rdfxml'], ['application/rdf+xml; charset=UTF-8', 'rdfxml'], ['application/xml', 'rdfxml'],
    ['text/xml', 'rdfxml'], ['text/turtle', 'turtle'], ['application/x-turtle', 'turtle'], ['application/n-triples', 'ntriples'],
    ['text/plain', 'ntriples'], ['text/n3', 'n3'], ['text/rdf+n3', 'n3'], ['application/ld+json', 'jsonld'],
    ['application/json', 'jsonld'], ['text/csv', undefined], ['', undefined], ['application/x-www-form-urlencoded', undefined],
  ];
  for (const [type, syntax] of table) {
    it(`${JSON.stringify(type)} → ${syntax}`, () => expect(syntaxOf(type)).to.equal(syntax));
  }
});
