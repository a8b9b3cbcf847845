// The plain JSON writer on shapes the resources rarely show: cycles, blank nodes referenced
// twice, language strings, a literal a coerced term cannot take, a stream whose resource
// gains a key after its array closed. Each is expanded by the jsonld package under the
// published context and compared with the triples written.
import { expect } from 'chai';
import type * as RDF from '@rdfjs/types';
import jsonld from 'jsonld';
import { DataFactory, Parser } from 'n3';
import { jsonDocument } from '../../../src/rdf/plainJson.ts';
import { jsonTextStream } from '../../../src/rdf/plainJsonStream.ts';
import { JSON_CONTEXT } from '../../../src/rdf/jsonContext.ts';
import { canonical } from '../../helpers/rdf.ts';

const CONTEXT_URL = 'http://example.org/context.jsonld';
const documentLoader = async (url: string) => {
  if (url !== CONTEXT_URL) throw new Error(`unexpected ${url}`);
  return { contextUrl: undefined, documentUrl: url, document: JSON_CONTEXT };
};
const toRDF = jsonld.toRDF as unknown as (input: object, options: object) => Promise<string>;
const expanded = async (doc: object): Promise<string> => canonical(new Parser({ format: 'N-Quads' }).parse(await toRDF(doc, { format: 'application/n-quads', documentLoader, safe: true })));
const parse = (ttl: string): RDF.Quad[] => new Parser({ format: 'Turtle' }).parse(ttl);

const PREFIXES = '@prefix ot: <http://www.opentox.org/api/1.1#> . @prefix dc: <http://purl.org/dc/elements/1.1/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> . @prefix ex: <http://example.org/> .\n';
const cases: Array<[string, string, string | undefined]> = [
  ['a cycle of single references', 'ex:a ot:model ex:b . ex:b ot:dataset ex:a . ex:b dc:title "b" .', undefined],
  ['a blank node referenced twice', 'ex:a ot:error _:e . ex:c ot:error _:e . _:e ot:message "m" .', 'http://example.org/a'],
  ['a language string and a typed literal', 'ex:a dc:title "Titel"@de ; dc:description "x"^^ex:type ; ot:numFolds 10 ; ot:stratified true .', 'http://example.org/a'],
  ['a date that is not xsd:dateTime', 'ex:a dc:date "yesterday" ; dc:identifier ex:a .', 'http://example.org/a'],
  ['an unknown property and a class outside ot:', 'ex:a ex:colour "red" ; a ex:Thing, ot:Model .', 'http://example.org/a'],
];

describe('plain JSON writer', () => {
  it('an rdf:List of blank nodes is written as @list, with the same triples', async () => {
    const quads = parse(PREFIXES + 'ex:a ot:independentVariables ( ex:f1 ex:f2 "three" ) .');
    const doc = jsonDocument(quads, { contextUrl: CONTEXT_URL, resource: 'http://example.org/a' }) as Record<string, unknown>;
    expect(JSON.stringify(doc)).to.contain('"@list":[{"id":"http://example.org/f1"},{"id":"http://example.org/f2"},"three"]');
    expect(await expanded(doc)).to.equal(await canonical(quads));
  });

  it('a chain of 300 named nodes, each referenced once, nests at most 8 deep and keeps its triples', async () => {
    const cells = Array.from({ length: 300 }, (_, j) => `ex:c${j} rdf:first ex:f${j} ; rdf:rest ${j + 1 < 300 ? `ex:c${j + 1}` : 'rdf:nil'} .`).join('\n');
    const quads = parse(PREFIXES + '@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\nex:a ot:independentVariables ex:c0 .\n' + cells);
    const doc = jsonDocument(quads, { contextUrl: CONTEXT_URL, resource: 'http://example.org/a' });
    const depth = (v: unknown): number => (v && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);
    expect(depth(doc)).to.be.below(25);
    expect(await expanded(doc)).to.equal(await canonical(quads));
  });

  for (const [name, ttl, resource] of cases) {
    it(`${name}: the same triples after expansion`, async () => {
      const quads = parse(PREFIXES + ttl);
      const doc = jsonDocument(quads, { contextUrl: CONTEXT_URL, resource });
      expect(await expanded(doc)).to.equal(await canonical(quads));
    });
  }

  it('nests a node referenced once, names one referenced twice', () => {
    const doc = jsonDocument(parse(PREFIXES + 'ex:a ot:dataEntry _:e1 . _:e1 ot:compound ex:c . ex:a ot:error _:x . ex:b ot:error _:x . _:x ot:message "m" .'), { contextUrl: CONTEXT_URL, resource: 'http://example.org/a' }) as Record<string, unknown>;
    expect(doc.dataEntry).to.deep.equal([{ compound: { id: 'http://example.org/c' } }]);
    const label = (doc.error as { id: string }).id;
    expect(Object.keys(doc.error as object)).to.deep.equal(['id']);
    expect(label).to.match(/^_:/);
    expect((doc.included as Array<Record<string, unknown>>).map((n) => n.id)).to.have.members(['http://example.org/b', label]);
  });

  it('a list is a @graph, one resource the top object', () => {
    const quads = parse(PREFIXES + 'ex:a dc:title "a" .');
    expect(jsonDocument(quads, { contextUrl: CONTEXT_URL, list: true })).to.have.property('@graph');
    expect(jsonDocument(quads, { contextUrl: CONTEXT_URL })).to.include({ id: 'http://example.org/a', title: 'a' });
  });

  it('streams: keys of later chunks open arrays, a key written before goes under included', async () => {
    const { namedNode, literal, quad } = DataFactory;
    const a = namedNode('http://example.org/a');
    const p = (local: string) => namedNode(`http://www.opentox.org/api/1.1#${local}`);
    const chunks: RDF.Quad[][] = [
      [quad(a, namedNode('http://purl.org/dc/elements/1.1/title'), literal('a')), quad(namedNode('http://example.org/f'), p('units'), literal('mg'))],
      [quad(a, p('dataEntry'), namedNode('http://example.org/e1')), quad(namedNode('http://example.org/e1'), p('compound'), namedNode('http://example.org/c1'))],
      [quad(a, p('dataEntry'), namedNode('http://example.org/e2')), quad(namedNode('http://example.org/e2'), p('compound'), namedNode('http://example.org/c2'))],
      [quad(a, namedNode('http://purl.org/dc/elements/1.1/title'), literal('again'))],
    ];
    let text = '';
    for await (const t of jsonTextStream(chunks, { contextUrl: CONTEXT_URL, resource: a.value })) text += t;
    const doc = JSON.parse(text) as Record<string, unknown>;
    expect((doc.dataEntry as unknown[]).length).to.equal(2);
    expect(doc.title).to.equal('a');
    expect(await expanded(doc)).to.equal(await canonical(chunks.flat()));
  });
});
