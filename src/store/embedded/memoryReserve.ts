// Room at the top of Oxigraph's WebAssembly memory, so that a growing store does not make V8
// mark the whole JavaScript heap at nearly every load.
//
// Oxigraph's allocator (Rust's dlmalloc) grows its WebAssembly memory by just what one
// allocation lacks, and V8 (Node 20) takes each growth as the whole memory newly allocated
// outside its heap: the memory's new ArrayBuffer is counted before the detached one is
// swept, so past a few hundred MB every growth is over the external-memory limit and starts
// a full marking ("external memory pressure"). A store that grows by a little at each
// load then marks at each load: a 100,000-row upload spent more CPU on V8's helper
// threads than on storing. After a load that grew the memory, a
// reserve is allocated inside it and freed again; the allocator keeps freed space for its
// next allocations, so the loads after it grow into that space, and the memory grows
// once per reserve instead of once per load.
import { getHeapStatistics } from 'node:v8';
import * as ox from 'oxigraph';

/**
 * Size of one allocation of the reserve. Writing it costs what the store's own growth into it
 * would have (first touches of its pages); 16 MiB takes tens of milliseconds on the event loop.
 */
const RESERVE_BYTES = 16 << 20;
/** Most allocations one reserve makes before it gives up (see reserve). */
const MOST_ALLOCATIONS = 16;

/**
 * The text of one allocation. Its first character is outside ASCII, so wasm-bindgen copies it
 * into the memory with TextEncoder.encodeInto rather than one character at a time.
 */
let reserveText: string | undefined;

/**
 * This thread's external memory: Oxigraph's WebAssembly memory and ArrayBuffers. Within a
 * synchronous call into Oxigraph only the memory's growth can raise it.
 */
const external = (): number => getHeapStatistics().external_memory;

/** Runs `load` (a call into Oxigraph); if it grew the store's memory, leaves room for the loads after it. */
export function loadWithReserve(load: () => void): void {
  const before = external();
  load();
  if (external() > before) reserve();
}

/**
 * Allocates RESERVE_BYTES at a time until an allocation grows the memory, then frees them
 * all. Only that last one lies at the top of the memory, where the store grows: the ones
 * before it filled free blocks inside it, which the store reuses anyway.
 */
function reserve(): void {
  reserveText ??= '\u00e9'.padEnd(RESERVE_BYTES, 'x');
  const held: ox.Literal[] = [];
  try {
    const start = external();
    while (held.length < MOST_ALLOCATIONS) {
      held.push(ox.literal(reserveText));
      if (external() > start) break;
    }
  } finally {
    // wasm-bindgen's free(): the allocation goes back to Oxigraph's allocator now, not when a
    // finalizer runs.
    for (const literal of held) (literal as unknown as { free(): void }).free();
  }
}
