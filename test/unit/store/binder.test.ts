// Queries are files (STYLE §5): values bound into a real query file cannot change its
// shape, whatever SPARQL syntax they carry.
import { expect } from 'chai';
import sparqljs from 'sparqljs';
import { DataFactory } from 'n3';
import { QueryFiles } from '../../../src/store/queries.ts';
import { bind, type Bindable } from '../../../src/store/binder.ts';
import { TripleStore } from '../../../src/store/embedded/store.ts';
import { HttpError } from '../../../src/errors.ts';
import { DC, ERR, XSD } from '../../../src/rdf/vocab.ts';
import { tempDir } from '../../helpers/app.ts';

const { namedNode, literal, quad } = DataFactory;
const queries = new QueryFiles();
const parse = (text: string) => new sparqljs.Parser().parse(text);

/** The parsed query with every literal's text replaced, so only its shape remains. */
function shape(text: string): string {
  return JSON.stringify(parse(text), (_key, value: unknown) => {
    const term = value as { termType?: string } | null;
    return term?.termType === 'Literal' ? { ...term, value: '<literal>', language: '<language>', datatype: '<datatype>' } : value;
  });
}

/** The literal bound into subjects-with-value.rq, read back from the parsed query. */
function boundLiteral(text: string): unknown {
  const where = (parse(text) as sparqljs.SelectQuery).where![0] as sparqljs.GraphPattern;
  return ((where.patterns[0] as sparqljs.BgpPattern).triples[0]!.object as { value: string }).value;
}

const HOSTILE_LITERALS = [
  '> } ; DROP ALL',
  '" } ; DROP ALL ; INSERT DATA { <http://a> <http://b> <http://c> } #',
  "' } UNION { ?s ?p ?o } #",
  'line one\nline two\r\n} DROP ALL',
  'back\\slash \\" still inside \\',
  '"""triple quoted""" and \'\'\'single\'\'\'',
  'tab\tform\fbackspace\b',
  'unicode: é ☠ 𝔘 \u2028 \u0085 {{value}}',
  '',
];

const BENIGN = 'benign';

function expectInvalidIri(fn: () => unknown): void {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).to.be.instanceOf(HttpError);
  expect((error as HttpError).status).to.equal(400);
  expect((error as HttpError).code.value).to.equal(ERR.InvalidIRI.value);
}

describe('query binder', () => {
  const benign = queries.text('subjects-with-value', { property: DC.title, value: BENIGN });

  for (const hostile of HOSTILE_LITERALS) {
    it(`a literal ${JSON.stringify(hostile).slice(0, 40)} stays one literal`, () => {
      const text = queries.text('subjects-with-value', { property: DC.title, value: hostile });
      expect(shape(text)).to.equal(shape(benign));
      expect(boundLiteral(text)).to.equal(hostile);
    });
  }

  it('typed and language-tagged literals keep their text exactly', () => {
    for (const value of [literal('"; DROP ALL #', 'en-GB'), literal('1"^^<x> } DROP ALL', XSD.string), literal('3 } #', XSD.integer)]) {
      const text = queries.text('subjects-with-value', { property: DC.title, value });
      expect(shape(text)).to.equal(shape(benign));
      expect(boundLiteral(text)).to.equal(value.value);
    }
  });

  const HOSTILE_IRIS = [
    'http://example.org/a> } ; DROP ALL ; <http://x',
    'http://example.org/a b',
    'http://example.org/"quote',
    'http://example.org/{x}',
    'http://example.org/back\\slash',
    'http://example.org/new\nline',
    'not an iri',
    'relative/path',
    '',
  ];
  for (const iri of HOSTILE_IRIS) {
    it(`the IRI ${JSON.stringify(iri).slice(0, 40)} is refused with 400 InvalidIRI`, () => {
      expectInvalidIri(() => queries.text('subjects-with-value', { property: namedNode(iri), value: BENIGN }));
      expectInvalidIri(() => queries.text('graph-exists', { graph: { iris: ['http://example.org/ok', iri] } }));
    });
  }

  it('an IRI carrying unicode and percent-escapes is bound unchanged', () => {
    const iri = 'http://example.org/é/%7D?q=a&b=c#frag';
    const text = queries.text('graph-exists', { graph: namedNode(iri) });
    expect(JSON.stringify(parse(text))).to.contain(JSON.stringify(iri));
  });

  it('a datatype or language tag carrying syntax is refused', () => {
    expectInvalidIri(() => queries.text('subjects-with-value', { property: DC.title, value: literal('x', namedNode('http://x> } DROP ALL')) }));
    expect(() => queries.text('subjects-with-value', { property: DC.title, value: literal('x', 'en } DROP ALL') })).to.throw(HttpError);
  });

  it('LIMIT and OFFSET take only non-negative integers', () => {
    expect(queries.text('graph-sizes', { limit: { raw: 10 }, offset: { raw: 0 } })).to.match(/LIMIT 10\s+OFFSET 0/);
    for (const bad of [-1, 1.5, NaN]) expect(() => queries.text('graph-sizes', { limit: { raw: bad }, offset: { raw: 0 } })).to.throw(HttpError);
  });

  it('a missing or extra placeholder is a programming error, not a client error', () => {
    for (const values of [{ property: DC.title }, { property: DC.title, value: 'x', extra: 'y' }] as Array<Record<string, Bindable>>) {
      let error: unknown;
      try {
        queries.text('subjects-with-value', values);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(Error);
      expect(error).not.to.be.instanceOf(HttpError);
    }
    expect(() => bind('ASK { {{a}} ?p ?o }', {})).to.throw(/no value bound for \{\{a\}\}/);
    expect(() => queries.text('no-such-query')).to.throw(/no query file/);
  });

  it('hostile values run against a real store match only themselves and change nothing', async () => {
    const store = await TripleStore.open(tempDir());
    const graphs = HOSTILE_LITERALS.map((_, i) => `http://example.org/r/${i}`);
    for (const [i, value] of HOSTILE_LITERALS.entries()) await store.replaceGraph(graphs[i]!, [quad(namedNode(graphs[i]!), DC.title, literal(value))]);
    const before = await store.size();
    for (const [i, value] of HOSTILE_LITERALS.entries()) {
      const rows = await store.select('subjects-with-value', { property: DC.title, value });
      expect(rows.map((r) => r.s!.value), JSON.stringify(value)).to.deep.equal([graphs[i]]);
    }
    expect(await store.size()).to.equal(before);
    expect(await store.ask('graph-exists', { graph: namedNode(graphs[0]!) })).to.equal(true);
    await store.close();
  });
});
