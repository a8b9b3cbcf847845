// Streaming serialisers give the same graph as the whole-graph ones, chunk by subject.
import { expect } from 'chai';
import { DataFactory } from 'n3';
import { rdfStream, STREAMABLE, type SubjectGroup } from '../../src/rdf/stream.ts';
import { parseRdf } from '../../src/rdf/parse.ts';
import { DC, OT, RDF, XSD } from '../../src/rdf/vocab.ts';
import { canonical, parseRdfXmlStrict } from '../helpers/rdf.ts';

const { quad, namedNode: nn, literal, blankNode } = DataFactory;

async function* rows(n: number): AsyncGenerator<SubjectGroup> {
  for (let i = 0; i < n; i++) {
    const s = nn(`http://e.org/dataset/1/entry/${i}`);
    const v = blankNode(`v${i}`);
    yield { subject: s, triples: [quad(s, RDF.type, OT.DataEntry), quad(s, OT.compound, nn(`http://e.org/compound/${i}`)), quad(s, OT.values, v), quad(s, nn(`http://e.org/custom/p${i % 3}x`), literal(`a<&>"${i}`))] };
    yield { subject: v, triples: [quad(v, OT.value, literal(String(i), XSD.integer)), quad(v, DC.title, literal(`row ${i}`, 'en'))] };
  }
}

describe('streaming RDF serialisation', () => {
  for (const syntax of STREAMABLE) {
    it(`${syntax}: yields several chunks that parse to the whole graph`, async () => {
      let text = '';
      let chunks = 0;
      for await (const chunk of rdfStream(rows(50), syntax)) { text += chunk; chunks++; }
      expect(chunks).to.be.greaterThan(50);
      const parsed = await parseRdf(text, syntax, 'http://e.org/');
      const all = [];
      for await (const g of rows(50)) all.push(...g.triples);
      expect(parsed).to.have.length(all.length);
      expect(await canonical(parsed)).to.equal(await canonical(all));
      if (syntax === 'rdfxml') expect(await parseRdfXmlStrict(text)).to.have.length(all.length);
    });
  }

  it('rdfxml: blank node labels that differ only in characters an XML name cannot hold stay distinct nodes', async () => {
    const s = nn('http://e.org/s');
    const labels = ['a-b', 'a_b', 'a.b', 'a_2d_b', 'aéb', 'a😀b'];
    async function* groups(): AsyncGenerator<SubjectGroup> {
      yield { subject: s, triples: labels.map((l) => quad(s, OT.values, blankNode(l))) };
      for (const [i, l] of labels.entries()) yield { subject: blankNode(l), triples: [quad(blankNode(l), OT.value, literal(String(i), XSD.integer))] };
    }
    let text = '';
    for await (const chunk of rdfStream(groups(), 'rdfxml')) text += chunk;
    const parsed = await parseRdfXmlStrict(text);
    expect(parsed).to.have.length(labels.length * 2);
    // Each value hangs off its own node: one node per label, each linked from s.
    const valueOf = new Map(parsed.filter((q) => q.predicate.equals(OT.value)).map((q) => [q.subject.value, q.object.value]));
    const linked = parsed.filter((q) => q.predicate.equals(OT.values)).map((q) => valueOf.get(q.object.value));
    expect(linked.sort()).to.deep.equal(labels.map((_, i) => String(i)).sort());
  });

  it('JSON-LD does not stream', () => {
    expect(() => rdfStream(rows(1), 'jsonld')).to.throw(/cannot stream/);
  });
});
