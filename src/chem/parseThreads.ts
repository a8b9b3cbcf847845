// Structures sent in requests (POST and PUT of compounds and conformers) are parsed in
// threads of their own, so that the event loop serving requests does not run the toolkits:
// parsing and InChI are most of what a new compound costs, and on
// the event loop they would use one core however many clients post at once.
//
// Requests that arrive while every thread is busy wait in one queue, and a thread is sent its
// share of it as one message: the cost of crossing threads is shared, and at rest a structure
// goes alone at once. A thread answers each structure as soon as it has parsed it, so that
// its client's compound is stored while the thread goes on; and it is sent more while it
// still holds AHEAD unanswered, so that it finds its next batch waiting when it finishes
// instead of idling through a round trip. With 16 clients posting at once on two cores, one
// batch a thread, answered whole, left both threads idle between rounds (a fifth of the CPU)
// and gave one thread most of the work: docs/performance.md has the figures.
//
// A thread holds its own toolkits, about 190 MB, so threads start only once structures come
// faster than START_RATE a second, and stop after IDLE_MS without work. A structure that comes
// alone, or before a thread has loaded its toolkits (a second or two), is parsed on the event
// loop (about a millisecond), so no request waits for a thread to start. They do not yield
// the CPU (threadPriority.ts) as job threads do: a client waits on them. A thread is stopped
// only while idle: on Node 20, terminating one inside RDKit's WASM can hang the other threads
// that use it (substructWorker.ts).
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { errorFromPlain } from '../errors.ts';
import { initChem, parseStructure, type ChemFormat, type ParsedStructure, type ParseOptions } from './index.ts';
import type { ParseReply, ParseRequest } from './parseThread.ts';
import { startThread, threadModule } from '../threads/threadModule.ts';

const ENTRY = threadModule('./parseThread.ts', import.meta.url);
/** What the threads are started with: nothing they read, a name for whoever lists the process's threads (the soak's memory probe). */
const PARSE_THREAD = { parseThread: true };
/** Most structures sent to a thread in one message. */
const BATCH = 32;
/** A thread holding fewer unanswered structures than this is sent more. */
const AHEAD = 2;
/** A thread without work for this long is stopped (its memory returned). */
export const IDLE_MS = 120_000;
/** Structures parsed on the event loop within one second that start the first thread. */
export const START_RATE = 20;
/** What a new thread parses first, to load its toolkits. */
const WARM_UP: ParseRequest = { text: 'Oc1ccccc1', format: 'smiles', options: { molfile: 'withCoordinates' } };

interface Waiting {
  request: ParseRequest;
  resolve: (s: ParsedStructure) => void;
  reject: (e: Error) => void;
}

interface Thread {
  worker: Worker;
  /** True once it has answered its first structure (its toolkits are loaded). */
  ready: boolean;
  /** What it was sent and has not answered yet, in the order it answers. */
  held: Waiting[];
  /** Structures it has answered. */
  answered: number;
  idle: NodeJS.Timeout | undefined;
}

export class StructureParser {
  private readonly threads: Thread[] = [];
  private readonly queue: Waiting[] = [];
  /** Messages sent to the threads so far (each a batch of structures). */
  batches = 0;
  /** Structures parsed on the event loop in the current second (START_RATE). */
  private hereSince = 0;
  private hereCount = 0;

  constructor(readonly size: number, readonly idleMs = IDLE_MS) {}

  /** parseStructure (parse.ts) of `text`: in one of the threads once one is ready, else here. */
  async parse(text: string, format: ChemFormat, options: ParseOptions = {}): Promise<ParsedStructure> {
    if (!this.threads.some((t) => t.ready)) {
      const now = performance.now();
      if (now - this.hereSince > 1000) {
        this.hereSince = now;
        this.hereCount = 0;
      }
      if (++this.hereCount >= START_RATE && this.threads.length === 0) this.start();
      return this.parseHere({ text, format, options });
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { text, format, options }, resolve, reject });
      this.pump();
    });
  }

  /** Starts every thread and waits until each has loaded its toolkits (for tests and benchmarks). */
  async warm(): Promise<void> {
    for (let i = this.threads.length; i < this.size; i++) this.start();
    await Promise.all(this.threads.filter((t) => !t.ready).map((t) => new Promise<void>((resolve) => t.worker.once('message', () => resolve()))));
  }

  /** Threads started (for tests). */
  get threadCount(): number {
    return this.threads.length;
  }

  /** Structures each running thread has answered, the warm-up included (for tests). */
  get answeredByThread(): number[] {
    return this.threads.map((t) => t.answered);
  }

  private pump(): void {
    while (this.queue.length > 0) {
      // The ready thread that holds the least, if it holds less than AHEAD.
      let thread: Thread | undefined;
      for (const t of this.threads) {
        if (t.ready && t.held.length < AHEAD && (!thread || t.held.length < thread.held.length)) thread = t;
      }
      if (!thread) {
        if (this.threads.length < this.size && this.threads.every((t) => t.ready)) this.start();
        return;
      }
      // Its share: the threads' work stays even, and their answers come back spread out.
      this.send(thread, this.queue.splice(0, Math.min(BATCH, Math.ceil(this.queue.length / this.size))));
    }
  }

  private send(thread: Thread, batch: Waiting[]): void {
    clearTimeout(thread.idle);
    thread.held.push(...batch);
    this.batches++;
    // A thread with work keeps the process alive until it answers; an idle one does not.
    thread.worker.ref();
    thread.worker.postMessage(batch.map((w) => w.request));
  }

  /** Starts a thread; it is ready once it has parsed WARM_UP. */
  private start(): Thread {
    const thread: Thread = { worker: startThread(ENTRY, { workerData: PARSE_THREAD }), ready: false, held: [], answered: 0, idle: undefined };
    this.threads.push(thread);
    // The rate that starts a thread is counted anew from here: once this one has stopped, the
    // structures that started it must not count towards the next start.
    this.hereSince = performance.now();
    this.hereCount = 0;
    thread.worker.on('message', (reply: ParseReply) => {
      thread.ready = true;
      const w = thread.held.shift();
      // One answer per structure sent, in order (parseThread.ts). A thread out of step with
      // that is ended as a failed one is, not thrown here, where it would end the service.
      if (!w) {
        void thread.worker.terminate();
        return;
      }
      thread.answered++;
      if (reply.ok) w.resolve(reply.value);
      else w.reject(errorFromPlain(reply.error));
      this.pump();
      if (thread.held.length === 0) {
        thread.worker.unref();
        thread.idle = setTimeout(() => this.stop(thread), this.idleMs);
        thread.idle.unref();
      }
    });
    // A thread that fails outside parseStructure's own error handling (killed, out of
    // memory) is dropped, and the next structures start another. The ones it held were
    // parsed by nobody: each is parsed here once more, as before any thread was ready, so
    // its client gets the structure's own answer, not the thread's failure.
    const lost = () => {
      if (!this.drop(thread)) return;
      const held = thread.held.splice(0);
      // One lost before it had loaded its toolkits would most likely be lost again: the
      // structures waiting for it are parsed here too, and a thread starts again only as the
      // first did (START_RATE).
      if (!thread.ready && !this.threads.some((t) => t.ready)) held.push(...this.queue.splice(0));
      for (const w of held) this.parseHere(w.request).then(w.resolve, w.reject);
      this.pump();
    };
    thread.worker.on('error', lost);
    thread.worker.on('exit', lost);
    this.send(thread, [{ request: WARM_UP, resolve: () => undefined, reject: () => undefined }]);
    return thread;
  }

  /** parseStructure on the event loop: until a thread is ready, and for what a lost thread held. */
  private async parseHere({ text, format, options }: ParseRequest): Promise<ParsedStructure> {
    await initChem([format]);
    return parseStructure(text, format, options);
  }

  private stop(thread: Thread): void {
    if (thread.held.length > 0 || !this.drop(thread)) return;
    void thread.worker.terminate();
  }

  private drop(thread: Thread): boolean {
    const i = this.threads.indexOf(thread);
    if (i < 0) return false;
    this.threads.splice(i, 1);
    clearTimeout(thread.idle);
    return true;
  }
}

/**
 * Threads of the process's parser: one per core up to four (on two cores, two threads took 5
 * to 15 % more compounds a second than one).
 */
export const PARSER_THREADS = Math.min(4, os.availableParallelism());

let shared: StructureParser | undefined;

/** The process's parser: one per process, whatever the number of apps in it (tests make many). */
export function structureParser(): StructureParser {
  shared ??= new StructureParser(PARSER_THREADS);
  return shared;
}
