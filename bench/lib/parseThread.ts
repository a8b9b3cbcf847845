// A thread of bench/lib/parseScaling.ts: parses its rows once untimed (the toolkit warmed up
// as the bench's own baseline is), then times a parse of every row at each message.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { parseAll, WARM_UP_ROWS } from './parsePass.ts';
import { initChem } from '../../src/chem/index.ts';

await initChem(['smiles']);
const { smiles } = workerData as { smiles: string[] };
parseAll(smiles.slice(0, WARM_UP_ROWS), {});
parentPort!.postMessage('ready');
parentPort!.on('message', () => {
  const started = performance.now();
  parseAll(smiles, {});
  parentPort!.postMessage(performance.now() - started);
});
