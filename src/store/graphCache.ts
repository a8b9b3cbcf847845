// Recently read resource graphs as plain JavaScript terms. Reading a term out of Oxigraph
// crosses into WASM for every .value, which made serialising a stored 50-triple resource
// cost 6x more than serialising the same quads held in JS; GET of a resource is the
// commonest request, so its graph is kept here until a write touches it.
import type * as RDF from '@rdfjs/types';

export class GraphCache {
  /** Insertion order is recency order: the first entry is the least recently used. */
  private readonly graphs = new Map<string, readonly RDF.Quad[]>();
  private triples = 0;

  constructor(private readonly maxTriples = 250_000) {}

  get(graph: string): readonly RDF.Quad[] | undefined {
    const quads = this.graphs.get(graph);
    if (quads) {
      this.graphs.delete(graph);
      this.graphs.set(graph, quads);
    }
    return quads;
  }

  set(graph: string, quads: readonly RDF.Quad[]): void {
    // A graph that would take a large share of the budget is not worth evicting others for.
    if (quads.length > this.maxTriples / 8) return;
    this.invalidate(graph);
    this.graphs.set(graph, quads);
    this.triples += quads.length;
    for (const [oldest, old] of this.graphs) {
      if (this.triples <= this.maxTriples) break;
      this.graphs.delete(oldest);
      this.triples -= old.length;
    }
  }

  invalidate(graph: string): void {
    const quads = this.graphs.get(graph);
    if (!quads) return;
    this.graphs.delete(graph);
    this.triples -= quads.length;
  }
}
