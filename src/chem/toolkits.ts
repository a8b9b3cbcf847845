// Loads the WASM toolkits once per thread (main thread or worker) and hands them out
// synchronously afterwards. Every object taken from them must be freed by the caller:
// WASM memory never shrinks.
import initRDKitModule, { type MainModule as RDKitModule, type Mol } from '@rdkit/rdkit';
import initIndigo from 'indigo-ketcher';
import { ServiceUnavailable } from '../errors.ts';

/** The subset of indigo-ketcher's API that we use. */
export interface IndigoModule {
  convert: (input: string, outputFormat: string, options: IndigoOptions) => string;
  MapStringString: new () => IndigoOptions;
  version: () => string;
}
export interface IndigoOptions {
  set: (key: string, value: string) => void;
  delete: () => void;
}

let rdkitModule: RDKitModule | undefined;
let indigoModule: IndigoModule | undefined;
let loading: Promise<void> | undefined;
let indigoLoading: Promise<void> | undefined;

/**
 * Formats only Indigo reads or writes (InChI, CML and CDXML input; CML and CDXML output).
 * Indigo's WebAssembly instance takes about 200 MiB in every thread that loads it, RDKit's
 * about 20 MiB, so Indigo is loaded only in a thread that meets one of these formats.
 */
const INDIGO_FORMATS: ReadonlySet<string> = new Set(['inchi', 'cml', 'cdxml']);

/**
 * Loads RDKit once in this thread (and waits for a restart in progress), and Indigo too when
 * one of `formats` needs it.
 */
export async function loadToolkits(formats: Iterable<string> = []): Promise<void> {
  loading ??= (async () => {
    rdkitModule = await initRDKitModule();
  })();
  await loading;
  if (reloading) await reloading;
  for (const f of formats) {
    if (INDIGO_FORMATS.has(f)) {
      await loadIndigo();
      break;
    }
  }
}

async function loadIndigo(): Promise<void> {
  indigoLoading ??= (async () => {
    indigoModule = (await initIndigo()) as IndigoModule;
  })();
  await indigoLoading;
}

export function rdkit(): RDKitModule {
  if (!rdkitModule) {
    if (reloading) throw new ServiceUnavailable('the chemistry toolkit is restarting after a crash', { retryAfterSeconds: 1 });
    throw new Error('chemistry toolkits are not loaded in this thread: await initChem() first');
  }
  return rdkitModule;
}

let reloading: Promise<void> | undefined;

/**
 * A WASM trap (e.g. a stack overflow on a huge molecule) leaves RDKit's memory unusable:
 * drop the instance and load a fresh one; until then calls answer 503.
 */
export function isWasmCrash(e: unknown): boolean {
  return e instanceof WebAssembly.RuntimeError;
}

export function restartRdkit(): void {
  rdkitModule = undefined;
  reloading ??= initRDKitModule().then((rd) => {
    rdkitModule = rd;
    reloading = undefined;
  });
}

/**
 * Indigo, once loaded in this thread. Callers that may meet its formats load it first
 * (initChem(formats)); a path that did not is answered 503 while it loads, never a 500.
 */
export function indigo(): IndigoModule {
  if (!indigoModule) {
    void loadIndigo();
    throw new ServiceUnavailable('the InChI/CML toolkit is loading in this process; ask again in a second', { retryAfterSeconds: 1 });
  }
  return indigoModule;
}

/** Runs `fn` on a molecule and frees it afterwards, whatever happens. */
export function withMol<T>(mol: Mol, fn: (mol: Mol) => T): T {
  try {
    return fn(mol);
  } finally {
    mol.delete();
  }
}

/**
 * Parses `input` with RDKit, collecting what RDKit logged so a failure can say why
 * (e.g. "Explicit valence for atom # 0 C, 5, is greater than permitted").
 */
export function rdkitMol(input: string, details?: Record<string, unknown>): { mol: Mol | null; log: string } {
  const { value: mol, log } = withRdkitLog((rd) => (details ? rd.get_mol(input, JSON.stringify(details)) : rd.get_mol(input)));
  return { mol: mol && mol.is_valid() ? mol : (mol?.delete(), null), log: cleanLog(log) };
}

/**
 * Runs `fn` with RDKit's log captured: what it answered, and what RDKit logged meanwhile.
 * Uncaptured, RDKit prints its log to stderr, outside the service's own log.
 */
export function withRdkitLog<T>(fn: (rd: RDKitModule) => T): { value: T; log: string } {
  const rd = rdkit();
  const capture = rd.set_log_capture('rdApp.*');
  try {
    const value = fn(rd);
    return { value, log: capture ? capture.get_buffer() : '' };
  } finally {
    capture?.delete();
  }
}

/** RDKit log lines without their time stamps, duplicates removed. */
function cleanLog(log: string): string {
  const lines = log.split('\n').map((l) => l.replace(/^\[\d\d:\d\d:\d\d\]\s*/, '').trim()).filter(Boolean);
  return [...new Set(lines)].join('; ');
}
