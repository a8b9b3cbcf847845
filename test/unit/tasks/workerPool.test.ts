// The job pool's threads: started ahead of the first job by warm(), and kept while idle for
// the time given (starting one and loading its toolkits costs a second or two).
import { expect } from 'chai';
import { WorkerPool } from '../../../src/tasks/workerPool.ts';
import { PARSE_WORKER, type ParseResult } from '../../../src/datasets/parseWorker.ts';

describe('worker pool threads', function () {
  this.timeout(60_000);

  it('warm() starts every thread, each with its toolkits loaded, and idle threads are kept for the idle time', async () => {
    const pool = new WorkerPool(2, undefined, 1_500);
    try {
      expect(pool.threads).to.equal(0);
      await pool.warm(PARSE_WORKER, 'warmUp');
      expect(pool.threads).to.equal(2);
      // Loaded: a parse in a warm thread needs no toolkit start.
      const [outcome] = await pool.run<ParseResult[]>(PARSE_WORKER, 'parseStructures', [{ text: 'OCC', format: 'smiles' }]);
      expect(outcome).to.not.have.property('error');
      expect(outcome).to.have.property('smiles', 'CCO');
      await new Promise((r) => setTimeout(r, 500));
      expect(pool.threads, 'kept while idle').to.equal(2);
      await new Promise((r) => setTimeout(r, 2_500));
      expect(pool.threads, 'let go after the idle time').to.equal(0);
    } finally {
      await pool.close();
    }
  });
});
