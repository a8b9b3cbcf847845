// Shared by the entries of worker threads (plain JavaScript, so that they load anywhere).
// Node 20 does not carry `--import tsx` module hooks into worker threads, so a .ts module
// would not load there: tsx is registered in the thread when a plain import fails.
import { register } from 'tsx/esm/api';

/** Imports the TypeScript module at `url` (absolute) in this thread. */
export async function importTypeScript(url) {
  try {
    return await import(url);
  } catch (e) {
    if (e?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw e;
    register();
    // A new specifier: the loader caches the failed import of the plain one.
    return import(`${url}?tsx`);
  }
}
