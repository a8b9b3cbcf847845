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

  invalidate(graph: string): void {
    this.delete(graph);
  }
}
