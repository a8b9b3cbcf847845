// Root hooks of the remote run (npm run test:remote: mocha --require test/helpers/remoteHooks.ts):
// the Virtuoso instances the apps of the run used are stopped once every suite has run.
import { stopVirtuosos } from './engines.ts';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await stopVirtuosos();
  },
};
