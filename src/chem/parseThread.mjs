// Entry of each structure-parsing thread (parseThreads.ts): the parser is TypeScript
// (threadEntry.mjs says why this file is not).
import { URL } from 'node:url';
import { importTypeScript } from '../threadEntry.mjs';

await importTypeScript(new URL('./parseThread.ts', import.meta.url).href);
