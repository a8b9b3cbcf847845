// Entry of every worker thread when the service runs from its TypeScript sources
// (threadModule.ts says why): registers tsx in the thread, then loads the module named by
// the thread's last argument. Plain JavaScript, so that it loads before tsx is registered.
import process from 'node:process';
import { register } from 'tsx/esm/api';

register();
const entry = await import(process.argv.at(-1));

/** A Piscina pool calls the module's default export. */
export default entry.default;
