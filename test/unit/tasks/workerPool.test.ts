// The job pool's threads: started ahead of the first job by warm(), and kept while idle for
// the time given (starting one and loading its toolkits costs a second or two).
import { expect } from 'chai';
import { WorkerPool } from '../../../src/tasks/workerPool.ts';
import { PARSE_WORKER, type ParseResult } from '../../../src/datasets/parseWorker.ts';

describe('worker pool threads', function () {
  this.timeout(60_000);

  it('warm() starts every thread, each with its toolkits loaded, and idle threads are kept for the idle time', async () => {
    // The idle time outlasts the first thread's warm-up set (src/chem/warmUp.ts, seconds on
    // a busy machine), during which the other thread already idles.
    const pool = new WorkerPool(2, undefined, 10_000);
    try {
      expect(pool.threads).to.equal(0);
      await pool.warm(PARSE_WORKER, 'warmUp');
      expect(pool.threads).to.equal(2);
      // Loaded: a parse in a warm thread needs no toolkit start.
      const [outcome] = await pool.run<ParseResult[]>(PARSE_WORKER, 'parseStructures', [{ text: 'OCC', format: 'smiles' }]);
      expect(outcome).to.not.have.property('error');
      expect(outcome).to.have.property('smiles', 'CCO');
      const idleSince = Date.now();
      await new Promise((r) => setTimeout(r, 500));
      expect(pool.threads, 'kept while idle').to.equal(2);
      while (pool.threads > 0 && Date.now() - idleSince < 20_000) await new Promise((r) => setTimeout(r, 250));
      expect(pool.threads, 'let go after the idle time').to.equal(0);
      expect(Date.now() - idleSince, 'not before it').to.be.at.least(9_500);
    } finally {
      await pool.close();
    }
  });
});
