// A thread of bench/lib/parseScaling.ts: parses its rows once untimed (the toolkit warmed up
// as the bench's own baseline is), then times a parse of every row at each message.
import { performance } from 'node:perf_hooks';
import { URL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { importTypeScript } from '../../src/threadEntry.mjs';

const { initChem, parseStructure } = await importTypeScript(new URL('../../src/chem/index.ts', import.meta.url).href);
await initChem(['smiles']);
const { smiles, warmUp } = workerData;
const pass = (rows) => {
  for (const s of rows) {
    try {
      parseStructure(s, 'smiles', {});
    } catch {
      // unreadable rows count as parsed, as in the bench's one-thread baseline
    }
  }
};
pass(smiles.slice(0, warmUp));
parentPort.postMessage('ready');
parentPort.on('message', () => {
  const started = performance.now();
  pass(smiles);
  parentPort.postMessage(performance.now() - started);
});
