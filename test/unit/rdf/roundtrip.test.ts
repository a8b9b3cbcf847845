// Every syntax of the format table: serialise, parse back, compare isomorphic graphs
// and every RDF/XML we write parses independently and survives the store.
import { expect } from 'chai';
import { DataFactory } from 'n3';
import type * as RDF from '@rdfjs/types';
import { RDF_TYPES, type RdfSyntax } from '../../../src/rdf/formats.ts';
import { serialize } from '../../../src/rdf/serialize.ts';
import { parseRdf } from '../../../src/rdf/parse.ts';
import { TripleStore } from '../../../src/store/embedded/store.ts';
import { OT, DC, XSD, RDF as RDFNS } from '../../../src/rdf/vocab.ts';
import { byValue, canonical, parseRdfXmlStrict } from '../../helpers/rdf.ts';
import { tempDir } from '../../helpers/app.ts';

const { quad, namedNode: nn, literal, blankNode } = DataFactory;
const S = nn('http://example.org/compound/1');
const ex = (l: string) => nn('http://example.org/vocab#' + l);

/** Graphs that exercise what breaks writers; `lossyInXml` marks characters XML 1.0 cannot carry. */
const GRAPHS: Array<{ name: string; quads: RDF.Quad[]; lossyInXml?: boolean }> = [
  { name: 'typed resource with ot/dc terms', quads: [quad(S, RDFNS.type, OT.Compound), quad(S, DC.title, literal('aspirin')), quad(S, OT.hasSource, nn('http://example.org/algorithm/x'))] },
  { name: 'blank nodes, chained and shared', quads: [quad(S, OT.parameters, blankNode('p1')), quad(blankNode('p1'), DC.title, literal('k')), quad(blankNode('p1'), OT.paramValue, blankNode('p2')), quad(blankNode('p2'), RDFNS.type, OT.Parameter), quad(S, OT.dataEntry, blankNode('p2'))] },
  { name: 'typed and language literals', quads: [quad(S, ex('n'), literal('3', XSD.integer)), quad(S, ex('i'), literal('42', XSD.int)), quad(S, ex('p'), literal('50.0', XSD.float)), quad(S, ex('d'), literal('2024-01-01T00:00:00Z', XSD.dateTime)), quad(S, ex('l'), literal('Chat', 'fr')), quad(S, ex('l'), literal('colour', 'en-gb')), quad(S, ex('b'), literal('true', XSD.boolean)), quad(S, ex('c'), literal('x', nn('http://example.org/dt#custom')))] },
  { name: 'markup characters and quotes', quads: [quad(S, ex('t'), literal('<a href="x">&amp;</a> it\'s ]]> "q"')), quad(S, ex('u'), literal('x', 'en')), quad(S, ex('e'), literal(''))] },
  { name: 'newlines, tabs, carriage returns', quads: [quad(S, ex('m'), literal('line1\nline2\r\nline3\ttab')), quad(S, ex('s'), literal('  leading and trailing  '))] },
  { name: 'unicode', quads: [quad(S, ex('u'), literal('Ünïcødé — 日本語 😀 \u00A0')), quad(nn('http://example.org/ü/日本'), ex('v'), literal('é'))] },
  { name: 'control characters', quads: [quad(S, ex('c'), literal('bell\u0007 nul-ish\u0001 esc\u001B'))], lossyInXml: true },
  { name: 'IRIs with #, %, & and query strings', quads: [quad(nn('http://example.org/ds/1?feature_uris%5B%5D=http%3A%2F%2Fx&a=b#frag'), ex('p'), nn('http://example.org/a?x=1&y=2&z=%20')), quad(nn('http://example.org/a#b'), nn('http://example.org/p?x=1&y=2#q'), literal('v'))] },
  { name: 'predicates needing generated prefixes', quads: [quad(S, nn('http://example.org/p/x1'), literal('a')), quad(S, nn('http://example.org/other#y-2'), literal('b')), quad(S, nn('urn:isbn:foo.bar'), literal('c')), quad(S, RDFNS.type, nn('http://example.org/classes/Thing_1')), quad(nn('http://example.org/s2'), nn('http://example.org/p/x1'), literal('d'))] },
  { name: 'type whose IRI cannot be an element name', quads: [quad(S, RDFNS.type, nn('http://example.org/class/123')), quad(S, RDFNS.type, OT.Compound)] },
  { name: 'empty graph', quads: [] },
];

const XML_SAFE = (s: string) => s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '\uFFFD');
const xmlSafe = (quads: RDF.Quad[]) => quads.map((q) => q.object.termType === 'Literal' ? quad(q.subject, q.predicate, literal(XML_SAFE(q.object.value), q.object.language || q.object.datatype)) : q);

describe('RDF round trip through every syntax of the format table', () => {
  const syntaxes = [...new Set(RDF_TYPES.map((t) => t.syntax))] as RdfSyntax[];
  for (const g of GRAPHS) {
    for (const syntax of syntaxes) {
      it(`${syntax}: ${g.name}`, async () => {
        const text = await serialize(g.quads, syntax);
        const back = await parseRdf(text, syntax, 'http://example.org/base');
        const expected = syntax === 'rdfxml' && g.lossyInXml ? xmlSafe(g.quads) : g.quads;
        expect(await canonical(back)).to.equal(await canonical(expected));
      });
    }
  }

  // JSON-LD (jsonld.js) and the store rewrite a double's lexical form ("1.5" → "1.5E0"), not its value.
  for (const syntax of syntaxes) {
    it(`${syntax}: xsd:double keeps its value`, async () => {
      const text = await serialize([quad(S, ex('f'), literal('1.5', XSD.double))], syntax);
      const [back] = await parseRdf(text, syntax, 'http://example.org/base');
      expect((back!.object as RDF.Literal).datatype.value).to.equal(XSD.double.value);
      expect(Number(back!.object.value)).to.equal(1.5);
    });
  }

  it('JSON-LD is compacted with a context, not expanded', async () => {
    const doc = JSON.parse(await serialize(GRAPHS[0]!.quads, 'jsonld')) as Record<string, unknown>;
    expect(doc['@context']).to.be.an('object');
    expect(JSON.stringify(doc)).to.contain('"dc:title"');
    expect(JSON.stringify(doc)).not.to.contain('"http://purl.org/dc/elements/1.1/title"');
  });

  it('a property IRI with no XML name at its end cannot be RDF/XML: 406 that suggests other formats', async () => {
    const err = await serialize([quad(S, nn('http://example.org/p/123'), literal('x'))], 'rdfxml').then(() => undefined, (e: unknown) => e);
    expect(err).to.include({ status: 406 });
    expect((err as Error).message).to.match(/cannot write <http:\/\/example.org\/p\/123> as an RDF\/XML property/);
    for (const syntax of ['turtle', 'ntriples', 'jsonld'] as const) {
      expect(await serialize([quad(S, nn('http://example.org/p/123'), literal('x'))], syntax)).to.contain('http://example.org/p/123');
    }
  });

  it('RDF/XML declares the readable prefixes', async () => {
    const text = await serialize(GRAPHS[0]!.quads, 'rdfxml');
    for (const p of ['ot', 'dc', 'rdf', 'rdfs', 'owl', 'xsd']) expect(text).to.contain(`xmlns:${p}="`);
    expect(text).to.contain('<ot:Compound');
  });
});

describe('every RDF/XML we write parses in rdfxml-streaming-parser and survives the store', () => {
  let store: TripleStore;
  before(async () => { store = await TripleStore.open(tempDir()); });
  after(async () => { await store.close(); });

  GRAPHS.forEach((g, i) => {
    it(g.name, async () => {
      const text = await serialize(g.quads, 'rdfxml');
      const parsed = await parseRdfXmlStrict(text);
      const expected = g.lossyInXml ? xmlSafe(g.quads) : g.quads;
      expect(await canonical(parsed)).to.equal(await canonical(expected));
      const graph = `http://example.org/graph/${i}`;
      await store.replaceGraph(graph, parsed);
      // The store keeps numbers by value: "42"^^xsd:int comes back as "42"^^xsd:integer.
      const stored = await store.graph(graph);
      expect(await canonical(stored)).to.equal(await canonical(byValue(expected)));
      const again = await parseRdfXmlStrict(await serialize(stored, 'rdfxml'));
      expect(await canonical(again)).to.equal(await canonical(byValue(expected)));
    });
  });
});
