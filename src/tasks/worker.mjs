// Entry of each pool thread: the job runner is TypeScript (threadEntry.mjs says why this
// file is not).
import { URL } from 'node:url';
import { importTypeScript } from '../threadEntry.mjs';

const entry = await importTypeScript(new URL('./worker.ts', import.meta.url).href);

export default entry.default;
