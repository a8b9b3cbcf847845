// Opens everything the app depends on, in order, and closes it in reverse. main.ts and
// the integration tests both start the service through here, so they run the same code.
import path from 'node:path';
import type { Config } from './config.ts';
import type { Deps } from './deps.ts';
import { TripleStore } from './store/store.ts';
import { identityOf } from './auth/identity.ts';

export interface Running extends Deps {
  close: () => Promise<void>;
}

export async function openDeps(config: Config, log: Deps['log']): Promise<Running> {
  const closers: Array<() => Promise<void> | void> = [];
  const store = await TripleStore.open(path.join(config.dataDir, 'store'));
  closers.push(() => store.close());
  const deps: Deps = { config, store, log, identity: identityOf(config) };
  return {
    ...deps,
    close: async () => {
      for (const close of closers.reverse()) await close();
    },
  };
}
