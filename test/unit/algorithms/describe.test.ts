import { expect } from 'chai';
import { ALGORITHMS, parameterHash } from '../../../src/algorithms/catalogue.ts';
import { algorithmQuads } from '../../../src/algorithms/describe.ts';
import { ATYPE, DC, OT, OWL, RDF, XSD } from '../../../src/rdf/vocab.ts';

const base = 'http://example.org/algorithm/';

describe('algorithm descriptions (SPEC §2.1)', () => {
  it('has unique ids that are single URI path segments', () => {
    const ids = ALGORITHMS.map((a) => a.id);
    expect(new Set(ids).size).to.equal(ids.length);
    for (const id of ids) expect(id).to.match(/^[a-z0-9-]+$/);
  });

  for (const def of ALGORITHMS) {
    it(`${def.id}: ot:Algorithm with Dublin Core fields, types and typed parameters`, () => {
      const uri = base + def.id;
      const quads = algorithmQuads(def, uri);
      const of = (p: { value: string }) => quads.filter((q) => q.subject.value === uri && q.predicate.value === p.value).map((q) => q.object);
      expect(of(RDF.type).map((o) => o.value)).to.include(OT.Algorithm.value);
      expect(of(DC.identifier)[0]!.value).to.equal(uri);
      for (const p of [DC.title, DC.description, DC.creator, DC.contributor, DC.date]) expect(of(p), p.value).to.have.length.greaterThan(0);
      const isA = of(OT.isA).map((o) => o.value);
      expect(isA.length).to.be.greaterThan(0);
      for (const t of isA) expect(t.startsWith(ATYPE.ns)).to.equal(true);
      for (const t of def.types) expect(of(RDF.type).map((o) => o.value)).to.include(t.value);
      const params = of(OT.parameters);
      expect(params).to.have.length(def.params.length);
      for (const p of def.params) {
        const node = params.find((n) => quads.some((q) => q.subject.equals(n) && q.predicate.equals(DC.title) && q.object.value === p.name))!;
        const get = (pred: { value: string }) => quads.find((q) => q.subject.equals(node) && q.predicate.value === pred.value)!.object;
        expect(get(OT.paramScope).value).to.equal(p.mandatory ? 'mandatory' : 'optional');
        const value = get(OT.paramValue) as { value: string; datatype: { value: string } };
        if (p.default === undefined) expect(value.value).to.equal('');
        if (p.type === 'boolean') expect(value.datatype.value).to.equal(XSD.boolean.value);
        if (p.type === 'int') expect(value.datatype.value).to.equal(XSD.int.value);
      }
    });
  }

  it('descriptors with a Blue Obelisk entry carry it as owl:sameAs', () => {
    const tpsa = ALGORITHMS.find((a) => a.id === 'rdkit-tpsa')!;
    const quads = algorithmQuads(tpsa, base + tpsa.id);
    expect(quads.find((q) => q.predicate.equals(OWL.sameAs))!.object.value).to.match(/blueobelisk.*#tpsa$/);
  });

  it('a parameterised algorithm holds the exact values and names its generic algorithm', () => {
    const knn = ALGORITHMS.find((a) => a.id === 'knn')!;
    const values = { k: 7, min_similarity: 0.3, representation: 'auto', radius: 2, bits: 2048, folds: 5, seed: 1 };
    const uri = `${base}knn/${parameterHash(values)}`;
    const quads = algorithmQuads(knn, uri, { values, parent: base + 'knn' });
    expect(quads.some((q) => q.predicate.equals(DC.source) && q.object.value === base + 'knn')).to.equal(true);
    expect(quads.some((q) => q.predicate.equals(OT.paramValue) && q.object.value === '7')).to.equal(true);
    expect(parameterHash({ ...values })).to.equal(parameterHash(Object.fromEntries(Object.entries(values).reverse())));
    expect(parameterHash({ ...values, k: 8 })).not.to.equal(parameterHash(values));
  });
});
