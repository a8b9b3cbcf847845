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

  it('JSON-LD does not stream', () => {
    expect(() => rdfStream(rows(1), 'jsonld')).to.throw(/cannot stream/);
  });
});
