// ontology/algorithmTypes.ttl keeps every class, superclass and typed individual of the
// published AlgorithmTypes.owl (the reference copy in shared/ontology-reference), and marks
// the classes this service adds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type * as RDF from '@rdfjs/types';
import { parseRdf } from '../../../src/rdf/parse.ts';
import { ATYPE, DC, OWL, RDF as RDFNS, RDFS } from '../../../src/rdf/vocab.ts';
import { ONTOLOGY_DIR } from '../../../src/ontology/ontology.ts';

const REFERENCE = '/work/shared/ontology-reference/AlgorithmTypes.owl';

/** class → its superclasses (named ones), and individual → its types, in the ATYPE namespace. */
function hierarchy(quads: RDF.Quad[]): { classes: Map<string, string[]>; individuals: Map<string, string[]> } {
  const classes = new Map<string, string[]>();
  const individuals = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, k: string, v?: string) => {
    const list = m.get(k) ?? [];
    if (v && !list.includes(v)) list.push(v);
    m.set(k, list.sort());
  };
  for (const q of quads) {
    if (!q.subject.value.startsWith(ATYPE.ns) || q.subject.value === ATYPE.ns) continue;
    if (q.predicate.equals(RDFNS.type) && q.object.equals(OWL.Class)) add(classes, q.subject.value);
    else if (q.predicate.equals(RDFS.subClassOf) && q.object.termType === 'NamedNode') add(classes, q.subject.value, q.object.value);
    else if (q.predicate.equals(RDFNS.type) && q.object.value !== OWL.Ontology.value) add(individuals, q.subject.value, q.object.value);
  }
  for (const c of classes.keys()) individuals.delete(c);
  return { classes, individuals };
}

describe('ontology/algorithmTypes.ttl against the published AlgorithmTypes.owl', () => {
  let ours: RDF.Quad[];
  let ref: ReturnType<typeof hierarchy>;
  let mine: ReturnType<typeof hierarchy>;
  before(async () => {
    ours = await parseRdf(readFileSync(path.join(ONTOLOGY_DIR, 'algorithmTypes.ttl'), 'utf8'), 'turtle', ATYPE.ns);
    ref = hierarchy(await parseRdf(readFileSync(REFERENCE, 'utf8'), 'rdfxml', 'http://www.opentox.org/algorithmTypes.owl'));
    mine = hierarchy(ours);
  });

  it('the reference defines the classes we check (sanity)', () => {
    expect(ref.classes.size).to.be.greaterThan(30);
    expect(ref.classes.get(ATYPE.Classification.value)).to.deep.equal([ATYPE.Learning.value]);
  });

  it('has every published class with exactly its published superclasses', () => {
    for (const [cls, supers] of ref.classes) expect(mine.classes.get(cls), cls).to.deep.equal(supers);
  });

  it('has every published individual with its published types', () => {
    for (const [ind, types] of ref.individuals) expect(mine.individuals.get(ind), ind).to.deep.equal(types);
  });

  it('marks each class the reference lacks as an addition of this service', () => {
    const added = [...mine.classes.keys()].filter((c) => !ref.classes.has(c));
    expect(added.length).to.be.greaterThan(0);
    for (const c of added) {
      expect(ours.some((q) => q.subject.value === c && q.predicate.equals(DC.source) && q.object.value === 'addition'), c).to.equal(true);
    }
  });

  it('defines every ATYPE term of src/rdf/vocab.ts', () => {
    const terms = Object.values(ATYPE as Record<string, unknown>).filter((v): v is RDF.NamedNode => typeof v === 'object' && v !== null && 'termType' in v);
    expect(terms.length).to.be.greaterThan(20);
    for (const t of terms) expect(mine.classes.has(t.value), t.value).to.equal(true);
  });

  it('has the types the catalogue needs: Normalization, Generation3D, ApplicabilityDomain, DataCleanup', () => {
    for (const t of [ATYPE.Normalization, ATYPE.Generation3D, ATYPE.ApplicabilityDomain, ATYPE.DataCleanup]) expect(mine.classes.has(t.value)).to.equal(true);
  });
});
