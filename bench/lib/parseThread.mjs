// A thread of bench/lib/parseScaling.ts: parses its rows once untimed (the toolkit warmed up
// as the bench's own baseline is), then times a parse of every row at each message.
import { performance } from 'node:perf_hooks';
import { URL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { importTypeScript } from '../../src/threadEntry.mjs';

// parsePass.ts first: it brings the toolkit module in, which the second import then finds
// loaded (a first, failed plain import of it would be cached as failed, threadEntry.mjs).
const { parseAll, WARM_UP_ROWS } = await importTypeScript(new URL('./parsePass.ts', import.meta.url).href);
const { initChem } = await importTypeScript(new URL('../../src/chem/index.ts', import.meta.url).href);
await initChem(['smiles']);
const { smiles } = workerData;
parseAll(smiles.slice(0, WARM_UP_ROWS), {});
parentPort.postMessage('ready');
parentPort.on('message', () => {
  const started = performance.now();
  parseAll(smiles, {});
  parentPort.postMessage(performance.now() - started);
});
