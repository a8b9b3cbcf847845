// Structures sent in requests (POST and PUT of compounds and conformers) are parsed in a
// Piscina pool of their own, so that the event loop serving requests does not run the
// toolkits, and a client's structure never queues behind a job in the job threads. These
// threads keep the event loop's priority (job threads lower theirs): a client waits on them.
// A thread holds its own toolkits, about 190 MB, so threads start with the first structure
// and stop after REQUEST_THREAD_IDLE_MS without work.
import { REQUEST_THREAD_IDLE_MS, REQUEST_THREADS } from '../config.ts';
import { Piscina } from 'piscina';
import { errorFromPlain } from '../errors.ts';
import type { ChemFormat, ParsedStructure, ParseOptions } from './index.ts';
import type { ParseReply, ParseRequest } from './parseThread.ts';
import { poolEntry, threadModule } from '../threads/threadModule.ts';

/**
 * Structures handed to a thread ahead of the one it parses: it takes the next without a
 * round trip through a busy event loop (one a thread left it idle between every two).
 */
const TASKS_PER_THREAD = 4;

let pool: Piscina<ParseRequest, ParseReply> | undefined;

/** parseStructure (parse.ts) of `text`, in one of the process's parser threads. */
export async function parseInThread(text: string, format: ChemFormat, options: ParseOptions = {}): Promise<ParsedStructure> {
  pool ??= new Piscina({ ...poolEntry(threadModule('./parseThread.ts', import.meta.url)), minThreads: 0, maxThreads: REQUEST_THREADS, concurrentTasksPerWorker: TASKS_PER_THREAD, idleTimeout: REQUEST_THREAD_IDLE_MS });
  const reply = await pool.run({ text, format, options });
  if (!reply.ok) throw errorFromPlain(reply.error);
  return reply.value;
}
