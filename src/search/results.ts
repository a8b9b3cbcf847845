// Replies of a structure search: RDF by default, text/uri-list and CSV (streamed when long).
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

/** Hits written a line each, this many to a chunk of a streamed body. */
const LINES_PER_CHUNK = 1024;

/**
 * A line per hit after `head`: one string when the page fits one chunk (the compression
 * middleware then leaves a small body alone), else streamed a chunk at a time, not a line.
 */
function lined(type: string, head: string, hits: readonly Hit[], line: (h: Hit) => string): Variant {
  const chunk = (from: number): string => hits.slice(from, from + LINES_PER_CHUNK).map(line).join('');
  return {
    type,
    produce: () => {
      if (hits.length <= LINES_PER_CHUNK) return head + chunk(0);
      return Readable.from((function* () {
        yield head;
        for (let from = 0; from < hits.length; from += LINES_PER_CHUNK) yield chunk(from);
      })());
    },
  };
}

export function searchReply(page: SearchPage): Reply {
  const similarity = page.query.mode === 'similarity';
  const variants: Variant[] = [
    ...rdfVariants(() => quadsOf(page)),
    lined(URI_LIST, '', page.hits, (h) => h.uri + '\r\n'),
    lined(CSV, similarity ? 'compound,similarity\r\n' : 'compound\r\n', page.hits, (h) => csvField(h.uri) + (similarity ? ',' + h.similarity!.toFixed(4) : '') + '\r\n'),
  ];
  return { status: 200, headers: {}, variants };
}
