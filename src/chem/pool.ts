// Worker threads for slow chemistry (3D generation), off the event loop and under a time
// limit (issue #3: conformer generation can take seconds).
import os from 'node:os';
import Piscina from 'piscina';
import type { ConformerRequest, GeneratedConformer } from './conformers.ts';

let pool: Piscina | undefined;

function chemPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./conformerWorker.ts', import.meta.url).href,
    maxThreads: Math.max(1, Math.min(4, os.availableParallelism())),
    idleTimeout: 60_000,
  });
  return pool;
}

/** Generates conformers in a worker; rejects when `timeoutMs` passes (the worker is stopped). */
export function conformersInWorker(req: ConformerRequest, timeoutMs: number, signal?: AbortSignal): Promise<GeneratedConformer[]> {
  const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
  return chemPool().run(req, { signal: AbortSignal.any(signals) }) as Promise<GeneratedConformer[]>;
}

export async function closeChemPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.destroy();
}
