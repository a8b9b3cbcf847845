// PUT /dataset/{id}/metadata: the client's statements about the dataset replace the stored
// values of the same predicates, whatever the vocabulary (dc:rights, dcterms:license, ...).
// What the service manages itself (type, entries, warnings, creation date) may be sent back
// unchanged, as GET /dataset/{id}/metadata gave it, but not changed: anything refused is
// named in a 400, so a 200 never means that something sent was dropped.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { BadRequest } from '../errors.ts';
import { DC, ERR, OT, RDF as RDFNS } from '../rdf/vocab.ts';
import { requireDataset } from './datasetLayout.ts';

const { quad, namedNode } = DataFactory;

/** Predicates whose values the service writes (the dataset's shape and history). */
const MANAGED = [RDFNS.type, OT.dataEntry, OT.warning, DC.date].map((p) => p.value);

const show = (q: RDF.Quad) => `<${q.subject.value}> <${q.predicate.value}> ${q.object.termType === 'Literal' ? JSON.stringify(q.object.value) : q.object.termType === 'BlankNode' ? '[]' : `<${q.object.value}>`}`;

/** The single subject the body describes: the dataset itself, or its one ot:Dataset. */
function subjectOf(dataset: string, body: readonly RDF.Quad[]): string {
  if (body.some((q) => q.subject.value === dataset)) return dataset;
  const typed = [...new Set(body.filter((q) => q.predicate.equals(RDFNS.type) && q.object.equals(OT.Dataset)).map((q) => q.subject.value))];
  if (typed.length !== 1) throw new BadRequest(`the RDF says nothing about ${dataset} (and holds no single ot:Dataset)`, { code: ERR.NotADatasetRepresentation });
  return typed[0]!;
}

export async function replaceMetadata(deps: Deps, dataset: string, body: readonly RDF.Quad[]): Promise<void> {
  await requireDataset(deps, dataset);
  const about = subjectOf(dataset, body);
  const d = namedNode(dataset);
  const stored = await deps.store.match(d, null, null, dataset);
  const isStored = (q: RDF.Quad) => stored.some((s) => s.predicate.equals(q.predicate) && s.object.equals(q.object));
  const added: RDF.Quad[] = [];
  const refused: string[] = [];
  for (const q of body) {
    if (q.subject.value !== about) {
      refused.push(`${show(q)} (only statements about the dataset are its metadata)`);
      continue;
    }
    const own = quad(d, q.predicate as RDF.Quad_Predicate, q.object as RDF.Quad_Object);
    if (MANAGED.includes(q.predicate.value)) {
      if (!isStored(own) && !own.object.equals(OT.Dataset)) refused.push(`${show(own)} (set by the service)`);
    } else if (q.object.termType === 'BlankNode') {
      refused.push(`${show(own)} (a blank node cannot be stored: give an IRI or a literal)`);
    } else {
      added.push(own);
    }
  }
  if (refused.length > 0) {
    throw new BadRequest(`the metadata of ${dataset} was not changed: ${refused.length} statement(s) cannot be stored`, {
      code: ERR.InvalidParameter,
      details: refused.slice(0, 20).join('\n'),
    });
  }
  if (added.length === 0) throw new BadRequest(`no metadata to set for ${dataset}: send statements such as dc:title about it`, { code: ERR.NotADatasetRepresentation });
  const replaced = new Set(added.map((q) => q.predicate.value));
  await deps.store.commit([
    { op: 'remove', graph: dataset, quads: stored.filter((q) => replaced.has(q.predicate.value)) },
    { op: 'add', graph: dataset, quads: added },
  ]);
}
