// Recently read resource graphs as plain JavaScript terms. Reading a term out of Oxigraph
// crosses into WASM for every .value, which made serialising a stored 50-triple resource
// cost 6x more than serialising the same quads held in JS; GET of a resource is the
// commonest request, so its graph is kept here until a write touches it.
import type * as RDF from '@rdfjs/types';
import { SizedLru } from '../../util/sizedLru.ts';

export class GraphCache extends SizedLru<readonly RDF.Quad[]> {
  /** A graph that would take more than an eighth of `maxTriples` is not kept. */
  constructor(maxTriples = 250_000) {
    super(maxTriples, (quads) => quads.length, { largest: maxTriples / 8 });
  }

  /** Reads of the store under way, and the graphs written since the oldest of them began. */
  private reads = 0;
  private writes = 0;
  private readonly writtenAt = new Map<string, number>();

  /**
   * Graph `graph` is being written: a write is sent to the store's thread, and again when it
   * has been applied there (a read answered between the two may hold either state).
   */
  invalidate(graph: string): void {
    this.delete(graph);
    this.writes++;
    if (this.reads > 0) this.writtenAt.set(graph, this.writes);
  }

  /** A read of the store begins; its token goes to `fill`. */
  begin(): number {
    this.reads++;
    return this.writes;
  }

  /** A read begun at `token` ended: keeps `quads` as graph `graph` unless it was written meanwhile. */
  fill(graph: string, token: number, quads: readonly RDF.Quad[] | undefined): void {
    if (quads !== undefined && (this.writtenAt.get(graph) ?? 0) <= token) this.set(graph, quads);
    if (--this.reads === 0) this.writtenAt.clear();
  }
}
