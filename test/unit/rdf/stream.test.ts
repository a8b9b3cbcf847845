// The streaming serialiser (STYLE §7): every syntax of the format table, read back by a
// parser, gives the triples that went in, however they were chunked, and is read lazily.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import type * as RDF from '@rdfjs/types';
import Koa from 'koa';
import { expect } from 'chai';
import { DataFactory } from 'n3';
import { handle } from '../../../src/http/send.ts';
import type { Reply } from '../../../src/http/reply.ts';
import { RDF_TYPES, type RdfSyntax } from '../../../src/rdf/formats.ts';
import { parseRdf } from '../../../src/rdf/parse.ts';
import { rdfTextStream } from '../../../src/rdf/stream.ts';
import { DC, OT, RDF as RDFNS, XSD } from '../../../src/rdf/vocab.ts';
import { canonical, parseRdfXmlStrict } from '../../helpers/rdf.ts';

const { quad, namedNode: nn, literal, blankNode } = DataFactory;
const SYNTAXES: RdfSyntax[] = [...new Set(RDF_TYPES.map((t) => t.syntax))];
const DATASET = nn('http://e.org/dataset/1');

/** Dataset-shaped chunks of `rows` entries each; the dataset subject recurs in every chunk. */
function chunks(n: number, rows = 10): RDF.Quad[][] {
  const out: RDF.Quad[][] = [];
  for (let c = 0; c < n; c++) {
    const chunk: RDF.Quad[] = [];
    for (let r = 0; r < rows; r++) {
      const i = c * rows + r;
      const e = nn(`http://e.org/dataset/1/entry/${i}`);
      const v = blankNode(`v${i}_0`);
      chunk.push(
        quad(DATASET, OT.dataEntry, e), quad(e, RDFNS.type, OT.DataEntry), quad(e, OT.compound, nn(`http://e.org/compound/${i}`)),
        quad(e, OT.values, v), quad(v, OT.feature, nn(`http://e.org/feature/${i % 3}`)), quad(v, OT.value, literal(String(i), XSD.integer)),
        quad(e, DC.title, literal(`row ${i} <&> "quoted"\nnext line`, 'en')), quad(e, nn(`http://e.org/custom/p${i % 3}x`), literal(`é ${i}`)),
      );
    }
    out.push(chunk);
  }
  return out;
}

async function* lazily<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function text(stream: AsyncIterable<string>): Promise<{ text: string; pieces: number }> {
  let out = '';
  let pieces = 0;
  for await (const piece of stream) { out += piece; pieces++; }
  return { text: out, pieces };
}

describe('rdfTextStream', () => {
  const input = chunks(20);
  const all = input.flat();

  for (const syntax of SYNTAXES) {
    it(`${syntax}: a piece per chunk that parse back to the triples that went in`, async () => {
      const { text: out, pieces } = await text(rdfTextStream(lazily(input), syntax));
      expect(pieces).to.be.at.least(input.length);
      const parsed = await parseRdf(out, syntax, 'http://e.org/');
      expect(parsed).to.have.length(all.length);
      expect(await canonical(parsed)).to.equal(await canonical(all));
    });

    it(`${syntax}: no triples, an empty chunk, or a plain array of chunks`, async () => {
      expect(await parseRdf((await text(rdfTextStream([], syntax))).text, syntax, 'http://e.org/')).to.deep.equal([]);
      const withEmpty = [input[0]!, [], input[1]!];
      const parsed = await parseRdf((await text(rdfTextStream(withEmpty, syntax))).text, syntax, 'http://e.org/');
      expect(await canonical(parsed)).to.equal(await canonical(withEmpty.flat()));
    });
  }

  it('rdfxml: the header comes first and the footer last, and a strict RDF/XML parser reads it', async () => {
    const pieces: string[] = [];
    for await (const piece of rdfTextStream(lazily(input), 'rdfxml')) pieces.push(piece);
    expect(pieces[0]).to.match(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<rdf:RDF[^>]*xmlns:ot="http:\/\/www\.opentox\.org\/api\/1\.1#"[^>]*>\n$/);
    expect(pieces.at(-1)).to.equal('</rdf:RDF>\n');
    expect(pieces.slice(1, -1).join('')).not.to.contain('<rdf:RDF');
    expect(await canonical(await parseRdfXmlStrict(pieces.join('')))).to.equal(await canonical(all));
  });

  it('rdfxml: blank node labels that differ only in characters an XML name cannot hold stay distinct nodes', async () => {
    const s = nn('http://e.org/s');
    const labels = ['a-b', 'a_b', 'a.b', 'a_2d_b', 'aéb', 'a😀b'];
    const graph = [labels.map((l) => quad(s, OT.values, blankNode(l))), labels.map((l, i) => quad(blankNode(l), OT.value, literal(String(i), XSD.integer)))];
    const parsed = await parseRdfXmlStrict((await text(rdfTextStream(graph, 'rdfxml'))).text);
    expect(parsed).to.have.length(labels.length * 2);
    // Each value hangs off its own node: one node per label, each linked from s.
    const valueOf = new Map(parsed.filter((q) => q.predicate.equals(OT.value)).map((q) => [q.subject.value, q.object.value]));
    const linked = parsed.filter((q) => q.predicate.equals(OT.values)).map((q) => valueOf.get(q.object.value));
    expect(linked.sort()).to.deep.equal(labels.map((_, i) => String(i)).sort());
  });

  it('jsonld: one JSON document with the prefix context and a node per subject', async () => {
    const doc = JSON.parse((await text(rdfTextStream(lazily([input[0]!, [], input[1]!]), 'jsonld'))).text) as { '@context': Record<string, string>; '@graph': Array<{ '@id': string }> };
    expect(doc['@context']).to.include({ ot: OT.ns });
    const subjects = new Set([input[0]!, input[1]!].flat().map((q) => (q.subject.termType === 'BlankNode' ? `_:${q.subject.value}` : q.subject.value)));
    // The dataset subject is in both chunks: one node per subject per chunk.
    expect(doc['@graph']).to.have.length(subjects.size + 1);
    expect(new Set(doc['@graph'].map((n) => n['@id']))).to.deep.equal(subjects);
  });

  it('read through Readable.from, it asks for chunks only as the reader takes text (backpressure)', async () => {
    let pulled = 0;
    async function* source(): AsyncGenerator<RDF.Quad[]> {
      for (const chunk of chunks(500, 1)) { pulled++; yield chunk; }
    }
    const stream = Readable.from(rdfTextStream(source(), 'ntriples'));
    await once(stream, 'readable');
    for (let i = 0; i < 20; i++) await tick();
    // Readable.from buffers up to its high-water mark (16 pieces), not the whole source.
    expect(pulled).to.be.within(1, 20);
    const parsed = await parseRdf((await text(stream)).text, 'ntriples', 'http://e.org/');
    expect(pulled).to.equal(500);
    expect(parsed).to.have.length(500 * 8);
  });

  describe('sent through handle(), as GET /dataset/{id} sends it', () => {
    let server: Server;
    let url: string;
    const big = chunks(100, 20);
    before(async () => {
      const app = new Koa();
      app.use(handle(() => ({ status: 200, headers: {}, variants: RDF_TYPES.map(({ type, syntax }) => ({ type, produce: () => Readable.from(rdfTextStream(lazily(big), syntax)) })) }) satisfies Reply));
      server = app.listen(0, '127.0.0.1');
      await once(server, 'listening');
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    after(() => server.close());

    for (const { type, syntax } of RDF_TYPES) {
      it(`${type}: 200, that type, all ${big.flat().length} triples`, async () => {
        const res = await fetch(url, { headers: { Accept: type } });
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(new RegExp('^' + type.replace('+', '\\+')));
        expect(await parseRdf(await res.text(), syntax, url)).to.have.length(big.flat().length);
      });
    }

    it('RDF/XML (the default) is sent chunked, not as one buffered body', async () => {
      const res = await fetch(url);
      expect(res.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
      expect(res.headers.get('transfer-encoding')).to.equal('chunked');
      expect(res.headers.get('content-length')).to.equal(null);
      await res.text();
    });
  });
});
