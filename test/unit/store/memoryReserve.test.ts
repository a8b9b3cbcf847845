import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));

describe('the reserve in Oxigraph\'s memory (memoryReserve.ts)', () => {
  it('a store that grows by every load grows its memory at a few of them, where without the reserve it grows at most', async () => {
    const probe = path.join(HERE, 'reserveProbe.ts');
    // Each in a process of its own: a fresh WebAssembly memory, with no free space that
    // earlier tests left behind.
    const loads = async (way: 'reserve' | 'plain') => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', probe, way], { maxBuffer: 1 << 20 });
      return JSON.parse(stdout) as { loads: number; grew: number; quads: number };
    };
    const plain = await loads('plain');
    const reserved = await loads('reserve');
    expect(plain.quads).to.equal(300_000);
    expect(reserved.quads).to.equal(300_000);
    // Measured here: 202 of 300 without, 2 with (each such load makes a reserve).
    expect(plain.grew).to.be.greaterThan(150);
    expect(reserved.grew).to.be.lessThan(20);
  });
});
