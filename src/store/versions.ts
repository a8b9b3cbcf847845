// Which graphs changed, and when: the validators of cached representations (RFC 9110 §8.8).
// Every write that goes through a store wrapped by `versioned` records, for each graph it
// touches, the number of the write (one counter for the whole store, so numbers only grow)
// and its time. A write to a graph is also recorded for every graph whose URI is a path
// prefix of it (compound/5/conformer/1 for compound/5 too): a representation built from a
// resource and what lies below it depends on one name. The counters live in memory; an
// epoch drawn at start keeps the validators of one run from matching those of another.
import { randomBytes } from 'node:crypto';
import type { WriteOp } from './writeOps.ts';
import type { ChangeFeed } from './changeFeed.ts';

/** The writes of the Store interface (src/store/api.ts GraphWriter, which TripleStore has too). */
export interface GraphWrites {
  commit(ops: readonly WriteOp[]): Promise<void>;
  replaceGraph(graph: string, ...rest: never[]): Promise<void>;
  addToGraph(graph: string, ...rest: never[]): Promise<void>;
  removeFromGraph(graph: string, ...rest: never[]): Promise<void>;
  dropGraph(graph: string): Promise<void>;
}

/** What a set of graphs was at one moment: the newest write to any of them. */
export interface GraphsState {
  /** Number of the newest write (0 when none since start). */
  seq: number;
  /** Time (ms) of that write, or the start of this run when none. */
  modified: number;
}

/** Graphs whose last write is remembered one by one. */
const MAX_GRAPHS = 100_000;

/**
 * Told of every write: the graphs it recorded (each written graph and the graphs above it),
 * or undefined for a write to every graph at once (forgetAll).
 */
export type WriteListener = (graphs: readonly string[] | undefined) => void;

export class GraphVersions {
  readonly epoch = randomBytes(6).toString('base64url');
  readonly started = Date.now();
  private seq = 0;
  private readonly last = new Map<string, GraphsState>();
  /** A write to every graph at once (forgetAll): no state is older than it. */
  private floor: GraphsState = { seq: 0, modified: this.started };
  private readonly listeners = new Set<WriteListener>();

  /**
   * Calls `listener` after every write. Caches drop what was made from a graph as soon as it
   * is written: a resource deleted is never asked for again, and what was cached from it
   * would otherwise stay until its space was wanted. Answers the function that unsubscribes.
   */
  onWrite(listener: WriteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Number of the newest write: a request notes it before reading anything. */
  get current(): number {
    return this.seq;
  }

  /** Records one write to each of `graphs` (and to the graphs above each). */
  bump(graphs: Iterable<string>): void {
    const state = { seq: ++this.seq, modified: Date.now() };
    const names: string[] = [];
    for (const graph of graphs) {
      for (const name of withParents(graph)) {
        this.last.set(name, state);
        names.push(name);
      }
    }
    // Every graph ever written has an entry, and resources come and go (tasks, datasets):
    // past a bound, one write to everything (every cached representation stale once)
    // keeps the map from growing for as long as the process runs.
    if (this.last.size > MAX_GRAPHS) this.forgetAll();
    else for (const listener of this.listeners) listener(names);
  }

  /** Counts as a write to every graph: what was made from any of them is stale. */
  forgetAll(): void {
    this.floor = { seq: ++this.seq, modified: Date.now() };
    this.last.clear();
    for (const listener of this.listeners) listener(undefined);
  }

  /** The newest write to any of `graphs` (or to a graph below one of them). */
  of(graphs: readonly string[]): GraphsState {
    let newest: GraphsState = this.floor;
    for (const graph of graphs) {
      const state = this.last.get(graph);
      if (state && state.seq > newest.seq) newest = state;
    }
    return newest;
  }
}

/** `graph` and every URI whose path is a prefix of its path, up to the first segment. */
function withParents(graph: string): string[] {
  const names = [graph];
  const pathStart = graph.indexOf('/', graph.indexOf('//') + 2);
  if (pathStart < 0) return names;
  for (let cut = graph.lastIndexOf('/'); cut > pathStart; cut = graph.lastIndexOf('/', cut - 1)) names.push(graph.slice(0, cut));
  return names;
}

const WRITES = new Set(['commit', 'replaceGraph', 'addToGraph', 'removeFromGraph', 'dropGraph']);
const registry = new WeakMap<object, GraphVersions>();

/**
 * `store` with every write recorded in a GraphVersions. The record is made once the write
 * has resolved (it is visible then), and also when it failed (part of it may be): a
 * request that noted the counter before the write began sees that it moved. The graphs are
 * then told to the other processes sharing the store (`feed`), before the write resolves.
 */
export function versioned<T extends GraphWrites>(store: T, feed?: Pick<ChangeFeed, 'publish'>): T {
  const versions = new GraphVersions();
  const wrapped = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof name !== 'string' || !WRITES.has(name) || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const graphs = name === 'commit' ? (args[0] as readonly WriteOp[]).map((op) => op.graph) : [args[0] as string];
        try {
          return await (value as (...a: unknown[]) => Promise<void>).apply(target, args);
        } finally {
          versions.bump(graphs);
          await feed?.publish(graphs);
        }
      };
    },
  });
  registry.set(wrapped, versions);
  return wrapped;
}

/** The versions of a store made by `versioned`; undefined for any other store (nothing is cached). */
export function versionsOf(store: object): GraphVersions | undefined {
  return registry.get(store);
}
