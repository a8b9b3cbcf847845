// Child process of memoryReserve.test.ts: a fresh Oxigraph store (a fresh WebAssembly memory)
// takes 300 graphs of 1,000 triples, one load each, as an upload's entries arrive; prints how
// many of the loads grew the memory. argv[2] is "reserve" to load through applyRecord (with
// the reserve), or "plain" for the same transactional load without it.
import { getHeapStatistics } from 'node:v8';
import * as ox from 'oxigraph';
import { applyRecord } from '../../../src/store/embedded/records.ts';

const LOADS = 300;
const way = process.argv[2];
const store = new ox.Store();
const graph = (i: number) => `http://example.org/dataset/1/chunk/${i}`;
const triples = (i: number) => {
  let nt = '';
  for (let k = 0; k < 1_000; k++) nt += `<http://example.org/dataset/1/entry/${i}-${k >> 4}> <http://example.org/feature/${k & 15}> "${(i * 1_000 + k) * 1.5}"^^<http://www.w3.org/2001/XMLSchema#double> .\n`;
  return nt;
};
let grew = 0;
for (let i = 0; i < LOADS; i++) {
  const nt = triples(i);
  const before = getHeapStatistics().external_memory;
  if (way === 'reserve') applyRecord(store, [{ op: 'add', graph: graph(i), nt }]);
  else store.load(nt, { format: 'application/n-triples', to_graph_name: ox.namedNode(graph(i)) });
  if (getHeapStatistics().external_memory > before) grew++;
}
process.stdout.write(JSON.stringify({ loads: LOADS, grew, quads: store.size }));
