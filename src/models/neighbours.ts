// Read-across neighbours as linked data (ontology/service.ttl): a model with a neighbour
// output <M#neighbours> writes, beside each prediction entry <E> of its result dataset,
//
//   <E> own:neighbour <E#neighbour-1> .
//   <E#neighbour-1> a own:Neighbour ; own:neighbourOf <M#neighbours> ; own:rank 1 ;
//       own:trainingCompound <C> ; own:similarity 0.87 ; own:measuredValue 1 .
//
// The nodes are fragments of the entry, so they travel with it in every RDF answer
// (datasetOutput.ts) and dereference to it. CSV carries them as column groups.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { DC, RDF as RDFNS, XSD, ownTerms, type OwnTerms } from '../rdf/vocab.ts';
import { entryUri, type EntryRow } from '../datasets/datasetLayout.ts';
import type { CsvGroup } from '../datasets/datasetOutput.ts';
import type { NeighbourOutputInfo, NeighbourValue } from './predictors.ts';

const { quad, namedNode, literal } = DataFactory;

export const neighbourOutputUri = (model: string): string => `${model}#neighbours`;

const valueLiteral = (v: number | string): RDF.Literal => (typeof v === 'number' ? literal(String(v), XSD.double) : literal(v));

/** The model's own statement of its neighbour output (its graph), with a copy kept in each result dataset. */
export function neighbourOutputQuads(own: OwnTerms, subject: string, out: NeighbourOutputInfo, title?: string): RDF.Quad[] {
  const o = namedNode(out.uri);
  const quads = [
    quad(namedNode(subject), own.neighbourOutput, o),
    quad(o, RDFNS.type, own.NeighbourOutput),
    quad(o, own.neighbourCount, literal(String(out.count), XSD.integer)),
    quad(o, own.similarityMeasure, literal(out.measure)),
  ];
  if (title) quads.push(quad(o, DC.title, literal(title)));
  return quads;
}

/** Triples of the neighbours of each row of a new dataset (its entries are numbered 1.. in row order). */
export function neighbourQuads(own: OwnTerms, dataset: string, output: string, rows: ReadonlyArray<readonly NeighbourValue[] | undefined>): RDF.Quad[] {
  const out: RDF.Quad[] = [];
  const of = namedNode(output);
  rows.forEach((list, i) => {
    const entry = entryUri(dataset, i + 1);
    list?.forEach((n, r) => {
      const node = namedNode(`${entry}#neighbour-${r + 1}`);
      out.push(
        quad(namedNode(entry), own.neighbour, node),
        quad(node, RDFNS.type, own.Neighbour),
        quad(node, own.neighbourOf, of),
        quad(node, own.rank, literal(String(r + 1), XSD.integer)),
        quad(node, own.trainingCompound, namedNode(n.compound)),
        quad(node, own.similarity, literal(String(n.similarity), XSD.double)),
        quad(node, own.measuredValue, valueLiteral(n.measured)),
      );
    });
  });
  return out;
}

/** Stores the neighbours of a prediction dataset just written, with the output's description. */
export async function writeNeighbours(deps: Deps, dataset: string, output: NeighbourOutputInfo, rows: ReadonlyArray<readonly NeighbourValue[] | undefined>): Promise<void> {
  const own = ownTerms(deps.config.baseUrl);
  await deps.store.addToGraph(dataset, [...neighbourOutputQuads(own, dataset, output), ...neighbourQuads(own, dataset, output.uri, rows)]);
}

/** The neighbour output whose nodes a dataset's entries carry, as its copy in the dataset says; undefined for none. */
export async function datasetNeighbourOutput(deps: Pick<Deps, 'store' | 'config'>, dataset: string): Promise<NeighbourOutputInfo | undefined> {
  const own = ownTerms(deps.config.baseUrl);
  const link = (await deps.store.match(namedNode(dataset), own.neighbourOutput, null, dataset))[0]?.object;
  if (!link || link.termType !== 'NamedNode') return undefined;
  const about = await deps.store.match(link, null, null, dataset);
  const count = Number(about.find((q) => q.predicate.equals(own.neighbourCount))?.object.value ?? 0);
  return { uri: link.value, count, measure: about.find((q) => q.predicate.equals(own.similarityMeasure))?.object.value ?? '' };
}

/** The neighbours of each row (rows read with their entry nodes, datasetLayout.ts rowsOf), by rank. */
export async function neighboursOfRows(deps: Pick<Deps, 'store' | 'config'>, dataset: string, rows: readonly EntryRow[]): Promise<NeighbourValue[][]> {
  const own = ownTerms(deps.config.baseUrl);
  const nodes = rows.flatMap((r) => r.nodes.filter((q) => q.predicate.equals(own.neighbour)).map((q) => q.object as RDF.NamedNode));
  const about = new Map<string, RDF.Quad[]>();
  for (const q of nodes.length ? await deps.store.describe(dataset, nodes) : []) about.set(q.subject.value, [...(about.get(q.subject.value) ?? []), q]);
  return rows.map((r) => r.nodes.filter((q) => q.predicate.equals(own.neighbour)).map((q) => {
    const quads = about.get(q.object.value) ?? [];
    const get = (p: RDF.NamedNode) => quads.find((x) => x.predicate.equals(p))?.object;
    const measured = get(own.measuredValue);
    return {
      rank: Number(get(own.rank)?.value ?? 0),
      compound: get(own.trainingCompound)?.value ?? '',
      similarity: Number(get(own.similarity)?.value ?? NaN),
      measured: measured && measured.termType === 'Literal' && measured.datatype.equals(XSD.double) ? Number(measured.value) : (measured?.value ?? ''),
    };
  }).sort((a, b) => a.rank - b.rank).map(({ rank: _rank, ...n }) => n));
}

/** CSV column group of a dataset with neighbours: compound, similarity and value of neighbour_1 .. neighbour_k. */
export function neighbourColumns(deps: Pick<Deps, 'store' | 'config'>, dataset: string, output: NeighbourOutputInfo): CsvGroup {
  const ranks = Array.from({ length: output.count }, (_, r) => r + 1);
  return {
    titles: ranks.flatMap((r) => [`neighbour_${r} compound`, `neighbour_${r} similarity`, `neighbour_${r} value`]),
    values: async (rows) => (await neighboursOfRows(deps, dataset, rows)).map((list) =>
      ranks.flatMap((r) => {
        const n = list[r - 1];
        return n ? [n.compound, String(n.similarity), String(n.measured)] : ['', '', ''];
      })),
  };
}
