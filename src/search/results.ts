// Replies of a structure search: RDF by default, text/uri-list and CSV streamed.
// Similarity hits carry their Tanimoto value as the value of one similarity feature with a
// stable URI, so the result reads like a dataset (RDF) or a two-column table (CSV).
import { Readable } from 'node:stream';
import { DataFactory } from 'n3';
import type * as RDF from '@rdfjs/types';
import { rdfVariants, type Reply, type Variant } from '../http/reply.ts';
import { URI_LIST } from '../rdf/formats.ts';
import { csvField } from '../rdf/csvCell.ts';
import { DC, OT, RDF as RDFV, XSD } from '../rdf/vocab.ts';
import type { Hit } from './engine.ts';
import type { SearchQuery } from './params.ts';

const { namedNode, literal, blankNode, quad } = DataFactory;
const CSV = 'text/csv';

export interface SearchPage {
  query: SearchQuery;
  hits: Hit[];
  /** The request's own URI, the subject of the result in RDF. */
  resultUri: string;
  similarityFeature: string;
}

export function describeQuery(q: SearchQuery): string {
  if (q.mode === 'exact') return `compounds identical to or named "${q.text}"`;
  if (q.mode === 'similarity') return `compounds with Tanimoto similarity >= ${q.threshold} to ${q.smiles} (Morgan radius 2, 2048 bits)`;
  return `compounds containing ${q.kind === 'smarts' ? 'SMARTS' : 'SMILES'} ${q.text}`;
}

/** Quads describing the similarity feature (served in every similarity result). */
export function similarityFeatureQuads(feature: string): RDF.Quad[] {
  const f = namedNode(feature);
  return [
    quad(f, RDFV.type, OT.Feature),
    quad(f, RDFV.type, OT.NumericFeature),
    quad(f, DC.title, literal('Tanimoto similarity')),
    quad(f, DC.description, literal('Tanimoto coefficient of Morgan fingerprints (radius 2, 2048 bits) between a compound and the query of a similarity search')),
  ];
}

function quadsOf(page: SearchPage): RDF.Quad[] {
  const result = namedNode(page.resultUri);
  const out: RDF.Quad[] = [quad(result, RDFV.type, OT.Dataset), quad(result, DC.title, literal(describeQuery(page.query)))];
  const similarity = page.query.mode === 'similarity';
  if (similarity) out.push(...similarityFeatureQuads(page.similarityFeature));
  for (const hit of page.hits) {
    const c = namedNode(hit.uri);
    out.push(quad(c, RDFV.type, OT.Compound));
    const entry = blankNode();
    out.push(quad(result, OT.dataEntry, entry), quad(entry, OT.compound, c));
    if (similarity && hit.similarity !== undefined) {
      const value = blankNode();
      out.push(
        quad(entry, OT.values, value),
        quad(value, OT.feature, namedNode(page.similarityFeature)),
        quad(value, OT.value, literal(hit.similarity.toFixed(4), XSD.double)),
      );
    }
  }
  return out;
}

function streamed(type: string, lines: () => Iterable<string>): Variant {
  return { type, produce: () => Readable.from(lines()) };
}

export function searchReply(page: SearchPage): Reply {
  const similarity = page.query.mode === 'similarity';
  const variants: Variant[] = [
    ...rdfVariants(() => quadsOf(page)),
    streamed(URI_LIST, function* () {
      for (const h of page.hits) yield h.uri + '\r\n';
    }),
    streamed(CSV, function* () {
      yield similarity ? 'compound,similarity\r\n' : 'compound\r\n';
      for (const h of page.hits) yield csvField(h.uri) + (similarity ? ',' + h.similarity!.toFixed(4) : '') + '\r\n';
    }),
  ];
  return { status: 200, headers: {}, variants };
}
