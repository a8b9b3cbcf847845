// Worker thread: a read replica of the store for the public SPARQL endpoint. It loads the
// snapshot and journal as they were when it started, then applies every committed record
// the main thread forwards, in commit order, so a query sees every write acknowledged
// before it was sent. The main thread terminates it when a query runs past its limit.
import { parentPort, workerData } from 'node:worker_threads';
import * as ox from 'oxigraph';
import { applyRecord, replay } from './records.ts';
import type { JournalRecord } from '../writeOps.ts';
import { escapeLiteral } from '../binder.ts';
import type { ReplayPlan } from './layout.ts';
import type { Dataset, QueryKind } from '../sparqlQuery.ts';
import { serialize } from '../../rdf/serialize.ts';
import type { RdfSyntax } from '../../rdf/formats.ts';
import type * as RDF from '@rdfjs/types';

export type ReplicaIn =
  | { type: 'apply'; record: JournalRecord }
  | { type: 'query'; id: number; text: string; kind: QueryKind; baseIri: string; dataset: Dataset; resultsFormat?: string; syntax?: RdfSyntax };

export type ReplicaOut =
  | { type: 'ready'; size: number }
  | { type: 'result'; id: number; body: string }
  | { type: 'error'; id: number; message: string; fatal?: boolean };

const port = parentPort!;
const store = new ox.Store();
const plan = workerData as ReplayPlan & { privatePrefixes?: string[] };
const privatePrefixes = plan.privatePrefixes ?? [];
replay(store, plan);
// Internal fields (e.g. a queued job's parameters) are kept by the main store but never
// answered here: swept once after loading, then filtered out of every applied record.
for (const prefix of privatePrefixes) {
  const p = escapeLiteral(prefix);
  store.update(`DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o FILTER(STRSTARTS(STR(?p), ${p})) } }`);
}
const PRIVATE_LINE = privatePrefixes.length
  ? new RegExp(`^(?:<[^>]*>|_:\\S+)\\s+<(?:${privatePrefixes.map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`)
  : undefined;

function withoutPrivate(record: JournalRecord): JournalRecord {
  if (!PRIVATE_LINE) return record;
  return record.map((op) => ('nt' in op && op.nt ? { ...op, nt: op.nt.split('\n').filter((l) => !PRIVATE_LINE.test(l)).join('\n') } : op));
}
port.postMessage({ type: 'ready', size: store.size } satisfies ReplicaOut);

function datasetOptions(ds: Dataset) {
  if (ds.union) return { use_default_graph_as_union: true };
  return { default_graph: ds.default.map((g) => ox.namedNode(g)), named_graphs: ds.named.map((g) => ox.namedNode(g)) };
}

async function run(msg: Extract<ReplicaIn, { type: 'query' }>): Promise<string> {
  const options = { base_iri: msg.baseIri, ...datasetOptions(msg.dataset) };
  if (msg.kind === 'select' || msg.kind === 'ask') {
    return store.query(msg.text, { ...options, results_format: msg.resultsFormat }) as string;
  }
  const quads = store.query(msg.text, options) as unknown as RDF.Quad[];
  return serialize(quads, msg.syntax ?? 'rdfxml');
}

port.on('message', (msg: ReplicaIn) => {
  if (msg.type === 'apply') {
    try {
      applyRecord(store, withoutPrivate(msg.record));
    } catch {
      // Refused by the main store too (its writer got an error): skipped there and on replay.
    }
    return;
  }
  run(msg).then(
    (body) => port.postMessage({ type: 'result', id: msg.id, body } satisfies ReplicaOut),
    // A WebAssembly trap (e.g. a stack overflow on a deeply nested query) leaves the store's
    // instance unusable: the main thread must replace this worker.
    (e: Error) => port.postMessage({ type: 'error', id: msg.id, message: e.message, fatal: e instanceof WebAssembly.RuntimeError } satisfies ReplicaOut),
  );
});
