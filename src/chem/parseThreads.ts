// Structures sent in requests (POST and PUT of compounds and conformers) are parsed in
// threads of their own, so that the event loop serving requests does not run the toolkits:
// parsing, InChI and the search fingerprints are most of what a new compound costs, and on
// the event loop they would use one core however many clients post at once.
//
// Requests that arrive while every thread is busy wait in one queue and go to the next free
// thread together, as one message: under load a thread gets a batch per round trip, so the
// cost of crossing threads is shared, and at rest a structure goes alone at once.
//
// These threads are not niced (threadPriority.ts) as job threads are: a client waits on
// them. They are never terminated: on Node 20, terminating a thread while V8 compiles
// RDKit's WASM can deadlock the other threads that use it (substructWorker.mjs). They are
// started on first use (or by warm()), and do not keep an idle process alive.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { errorFromPlain, InternalError } from '../errors.ts';
import type { ChemFormat, ParsedStructure } from './index.ts';
import type { ParseReply, ParseRequest } from './parseThread.ts';

const ENTRY = new URL('./parseThread.mjs', import.meta.url);
/** Most structures sent to a thread in one message. */
const BATCH = 32;

interface Waiting {
  request: ParseRequest;
  resolve: (s: ParsedStructure) => void;
  reject: (e: Error) => void;
}

interface Thread {
  worker: Worker;
  /** The batch it is parsing, if any. */
  batch: Waiting[] | undefined;
}

export interface ThreadParseOptions {
  /** As ParseOptions.molfile (parse.ts). */
  molfile?: 'always' | 'withCoordinates';
  /** As ParseOptions.fingerprints (parse.ts). */
  fingerprints?: boolean | 'withoutPattern';
}

export class StructureParser {
  private readonly threads: Thread[] = [];
  private readonly queue: Waiting[] = [];
  /** Messages sent to the threads so far (each a batch of structures). */
  batches = 0;

  constructor(readonly size: number) {}

  /** parseStructure (parse.ts) of `text` in one of the threads. */
  parse(text: string, format: ChemFormat, options: ThreadParseOptions = {}): Promise<ParsedStructure> {
    const request: ParseRequest = { text, format, molfile: options.molfile ?? 'always', fingerprints: options.fingerprints ?? false };
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.pump();
    });
  }

  /** Starts every thread and loads the toolkits in each, so the first request does not wait for it. */
  async warm(): Promise<void> {
    await Promise.all(Array.from({ length: this.size - this.threads.length }, () => {
      const thread = this.start();
      return new Promise<void>((resolve) => this.send(thread, [{ request: { text: 'Oc1ccccc1', format: 'smiles', molfile: 'always', fingerprints: true }, resolve: () => resolve(), reject: () => resolve() }]));
    }));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const thread = this.threads.find((t) => t.batch === undefined) ?? (this.threads.length < this.size ? this.start() : undefined);
      if (!thread) return;
      this.send(thread, this.queue.splice(0, BATCH));
    }
  }

  private send(thread: Thread, batch: Waiting[]): void {
    thread.batch = batch;
    this.batches++;
    // A thread with work keeps the process alive until it answers; an idle one does not.
    thread.worker.ref();
    thread.worker.postMessage(batch.map((w) => w.request));
  }

  private start(): Thread {
    const thread: Thread = { worker: new Worker(ENTRY), batch: undefined };
    thread.worker.unref();
    thread.worker.on('message', (replies: ParseReply[]) => {
      const batch = thread.batch ?? [];
      thread.batch = undefined;
      thread.worker.unref();
      batch.forEach((w, i) => {
        const reply = replies[i];
        if (reply?.ok) w.resolve(reply.value);
        else w.reject(reply ? errorFromPlain(reply.error) : new InternalError('the structure parser gave no answer for a structure'));
      });
      this.pump();
    });
    // A thread that fails outside parseStructure's own error handling is replaced; the
    // structures it held are answered with the error, not left waiting.
    const lost = (why: string) => {
      const i = this.threads.indexOf(thread);
      if (i < 0) return;
      this.threads.splice(i, 1);
      for (const w of thread.batch ?? []) w.reject(new InternalError(`the structure parser stopped: ${why}`));
      thread.batch = undefined;
      this.pump();
    };
    thread.worker.on('error', (e) => lost(e.message));
    thread.worker.on('exit', (code) => lost(`its thread exited with code ${code}`));
    this.threads.push(thread);
    return thread;
  }
}

let shared: StructureParser | undefined;

/**
 * The process's parser: one per process, whatever the number of apps in it (tests make many),
 * with a thread per core up to four.
 */
export function structureParser(): StructureParser {
  shared ??= new StructureParser(Math.min(4, os.availableParallelism()));
  return shared;
}
