// Entry of each pool thread. Node 20 does not carry `--import tsx` module hooks into
// worker threads, so .ts job modules would not load there: register tsx in this thread
// when a plain import of the TypeScript entry fails.
import { register } from 'tsx/esm/api';

let entry;
try {
  entry = await import('./worker.ts');
} catch (e) {
  if (e?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw e;
  register();
  // A new specifier: the loader caches the failed import of the plain one.
  entry = await import('./worker.ts?tsx');
}

export default entry.default;
