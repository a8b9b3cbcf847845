// An AlgorithmIO over in-memory tables, recording what an algorithm run creates, so unit
// tests drive the real apply flow without the dataset service.
import type { AlgorithmIO, DatasetRequest, FeatureRequest, ModelRequest } from '../../src/algorithms/io.ts';
import type { Table } from '../../src/algorithms/table.ts';
import type * as RDF from '@rdfjs/types';
import { ownTerms } from '../../src/rdf/vocab.ts';

export interface MemoryIO extends AlgorithmIO {
  tables: Map<string, Table>;
  features: AlgorithmIO['features'];
  created: { features: Array<FeatureRequest & { uri: string }>; datasets: Array<Omit<DatasetRequest, 'values'> & { uri: string; values: Array<ReadonlyArray<number | string | null>> }>; models: Array<ModelRequest & { uri: string }>; annotations: Map<string, RDF.Quad[]> };
}

export function memoryIO(tables: Table[]): MemoryIO {
  const created: MemoryIO['created'] = { features: [], datasets: [], models: [], annotations: new Map() };
  const byUri = new Map(tables.map((t) => [t.datasetUri, t]));
  let n = 0;
  return {
    tables: byUri,
    created,
    ownTerms: ownTerms('http://example.org'),
    algorithmUri: (id) => `http://example.org/algorithm/${id}`,
    ref: (uri) => ({ uri, base: uri.split('?')[0]!, local: false }),
    load: async ({ uri }) => {
      const t = byUri.get(uri);
      if (!t) throw new Error(`no table ${uri}`);
      return t;
    },
    features: async (specs) => specs.map((s) => {
      const uri = `http://example.org/feature/${++n}`;
      created.features.push({ ...s, uri });
      return uri;
    }),
    compounds: async (smiles) => smiles.map((s, i) => (s ? `http://example.org/compound/new-${++n}-${i}` : undefined)),
    dataset: async (r) => {
      const uri = `http://example.org/dataset/${++n}`;
      // Rows made on demand are read here, each once, as the store's writer reads them.
      created.datasets.push({ ...r, uri, values: Array.from({ length: r.values.length }, (_, i) => r.values.at(i)!) });
      return uri;
    },
    featureCalculation: async () => undefined,
    newModelUri: async () => `http://example.org/model/${++n}`,
    model: async (m) => {
      const uri = m.uri ?? `http://example.org/model/${++n}`;
      created.models.push({ ...m, uri });
      return uri;
    },
    annotateModel: async (uri, quads) => { created.annotations.set(uri, quads); },
    conformers: async (uri, count) => Array.from({ length: count }, (_, i) => `${uri}/conformer/${i + 1}`),
    publish: async (uri) => uri,
  };
}
