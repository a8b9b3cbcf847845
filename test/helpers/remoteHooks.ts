// Root hooks of the remote run (npm run test:remote: mocha --require test/helpers/remoteHooks.ts):
// the run's Virtuoso, started by the first app, is stopped once every suite has run.
import { stopSharedVirtuoso } from './engines.ts';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await stopSharedVirtuoso();
  },
};
