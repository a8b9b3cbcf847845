// Malformed RDF in each syntax answers 400 RDFSyntaxError naming line (and column where the
// parser knows it); invalid IRIs answer 400 InvalidIRI naming the IRI (bad input).
import { expect } from 'chai';
import { parseRdf, positionOf } from '../../../src/rdf/parse.ts';
import { HttpError } from '../../../src/errors.ts';
import { ERR } from '../../../src/rdf/vocab.ts';
import type { RdfSyntax } from '../../../src/rdf/formats.ts';

const RDFXML_HEAD = '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:e="http://e.org/">\n';

const TABLE: Array<{ syntax: RdfSyntax; text: string; code: string; message: RegExp }> = [
  { syntax: 'turtle', text: '@prefix e: <http://e.org/>.\n\ne:a e:b e:c ;\n  e:d .\n', code: 'RDFSyntaxError', message: /^malformed Turtle at line 4: / },
  { syntax: 'turtle', text: '<http://e.org/a> <http://e.org/b> "unterminated .\n', code: 'RDFSyntaxError', message: /^malformed Turtle at line 1, column 35: / },
  { syntax: 'turtle', text: 'e:a e:b e:c .', code: 'RDFSyntaxError', message: /^malformed Turtle at line 1: Undefined prefix/ },
  { syntax: 'ntriples', text: '<http://e.org/a> <http://e.org/b> <http://e.org/c> .\n<http://e.org/a> <http://e.org/b> "x .\n', code: 'RDFSyntaxError', message: /^malformed N-Triples at line 2, column 35: Unexpected ""x"/ },
  { syntax: 'ntriples', text: '<http://e.org/a> <http://e.org/b> <http://e.org/c>\n', code: 'RDFSyntaxError', message: /^malformed N-Triples at line \d: / },
  { syntax: 'n3', text: '@prefix e: <http://e.org/>.\ne:a e:b [ e:c .\n', code: 'RDFSyntaxError', message: /^malformed N3 at line 2: / },
  { syntax: 'rdfxml', text: RDFXML_HEAD + '  <rdf:Description rdf:about="http://e.org/a">\n    <x:p>1</x:p>\n  </rdf:Description>\n</rdf:RDF>\n', code: 'RDFSyntaxError', message: /^malformed RDF\/XML at line 4, column \d+: unbound namespace prefix/ },
  { syntax: 'rdfxml', text: RDFXML_HEAD + '  <rdf:Description rdf:about="http://e.org/a">\n</rdf:RDF>\n', code: 'RDFSyntaxError', message: /^malformed RDF\/XML at line 4, column \d+: / },
  { syntax: 'rdfxml', text: 'not xml at all', code: 'RDFSyntaxError', message: /^malformed RDF\/XML at line 1, column \d+: / },
  { syntax: 'rdfxml', text: RDFXML_HEAD + '  <rdf:Description rdf:about="http://e.org/a">\n    <e:p>1</e:p>\n', code: 'RDFSyntaxError', message: /^malformed RDF\/XML at line 5, column \d+: unclosed tag: rdf:Description/ },
  { syntax: 'rdfxml', text: '<rdf:RDF', code: 'RDFSyntaxError', message: /^malformed RDF\/XML at line 1, column \d+: / },
  { syntax: 'jsonld', text: '{\n  "@id": "http://e.org/a",\n  "http://e.org/b": 1,\n}\n', code: 'RDFSyntaxError', message: /^malformed JSON-LD at line 4, column 1: / },
  { syntax: 'jsonld', text: '{"@context": 5, "@id": "http://e.org/a"}', code: 'RDFSyntaxError', message: /^malformed JSON-LD: .*@context/ },
  { syntax: 'jsonld', text: '{"@id": "http://e.org/a", "unmapped": 1}', code: 'RDFSyntaxError', message: /^malformed JSON-LD: .*invalid property/ },
  { syntax: 'jsonld', text: '{"@id": "http://e.org/a b", "http://e.org/p": 1}', code: 'RDFSyntaxError', message: /^malformed JSON-LD: .*relative @id/ },
  { syntax: 'turtle', text: '<http://e.org/a> <http://e.org/b> <http://e.org/c?x[]=1> .', code: 'InvalidIRI', message: /not a valid absolute IRI: "http:\/\/e.org\/c\?x\[\]=1"/ },
  { syntax: 'ntriples', text: '<http://e.org/a#b#c> <http://e.org/b> "x" .\n', code: 'InvalidIRI', message: /not a valid absolute IRI/ },
  { syntax: 'rdfxml', text: RDFXML_HEAD + '<rdf:Description rdf:about="http://e.org/a"><e:p rdf:resource="http://e.org/%zz"/></rdf:Description></rdf:RDF>', code: 'InvalidIRI', message: /not a valid absolute IRI: "http:\/\/e.org\/%zz"/ },
  { syntax: 'rdfxml', text: RDFXML_HEAD + '<rdf:Description rdf:about="http://e.org/{a}"/></rdf:RDF>', code: 'RDFSyntaxError', message: /^malformed RDF\/XML at line 3, column \d+: Invalid IRI/ },
];

describe('parse errors name the problem and where it is', () => {
  for (const { syntax, text, code, message } of TABLE) {
    it(`${syntax}: ${message.source.slice(0, 70)}`, async () => {
      const err = await parseRdf(text, syntax, 'http://e.org/base').then(() => undefined, (e: unknown) => e);
      expect(err).to.be.instanceOf(HttpError);
      const e = err as HttpError;
      expect(e.status).to.equal(400);
      expect(e.code.value).to.equal(ERR.ns + code);
      expect(e.message).to.match(message);
    });
  }

  it('positionOf counts lines and columns from 1', () => {
    expect(positionOf('ab\ncd\nef', 0)).to.deep.equal({ line: 1, column: 1 });
    expect(positionOf('ab\ncd\nef', 4)).to.deep.equal({ line: 2, column: 2 });
  });

  it('an empty JSON-LD document (a bare context) is an empty graph', async () => {
    expect(await parseRdf('{"@context": {"dc": "http://purl.org/dc/elements/1.1/"}}', 'jsonld', 'http://e.org/')).to.deep.equal([]);
  });

  it('api/1.2# terms are read as api/1.1#', async () => {
    const [q] = await parseRdf('<http://e.org/t> <http://www.opentox.org/api/1.2#hasStatus> "Completed" .', 'ntriples', 'http://e.org/');
    expect(q!.predicate.value).to.equal('http://www.opentox.org/api/1.1#hasStatus');
  });
});
