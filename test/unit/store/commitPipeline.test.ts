// Chunks of one write kept a few commits in flight: never more than the depth at once, the
// first refused chunk stops the writer, and a writer that stops leaves nothing running.
import { expect } from 'chai';
import { CommitPipeline } from '../../../src/store/commitPipeline.ts';

/** A commit that ends when the test says so, and records that it started. */
function commits() {
  const started: number[] = [];
  const finish: Array<(error?: Error) => void> = [];
  let running = 0;
  let most = 0;
  const make = (n: number) => () => new Promise<void>((resolve, reject) => {
    started.push(n);
    running++;
    most = Math.max(most, running);
    finish[n] = (error) => {
      running--;
      if (error) reject(error);
      else resolve();
    };
  });
  return { started, finish, make, most: () => most, running: () => running };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('CommitPipeline', () => {
  it('keeps at most `depth` commits unfinished and starts the next as one finishes', async () => {
    const c = commits();
    const pipeline = new CommitPipeline(3);
    for (let n = 0; n < 3; n++) await pipeline.add(c.make(n));
    expect(c.started).to.deep.equal([0, 1, 2]);
    const fourth = pipeline.add(c.make(3));
    await turn();
    expect(c.started, 'the fourth waits for the first').to.deep.equal([0, 1, 2]);
    c.finish[0]!();
    await fourth;
    expect(c.started).to.deep.equal([0, 1, 2, 3]);
    const drained = pipeline.drain();
    for (const n of [1, 2, 3]) c.finish[n]!();
    await drained;
    expect(c.most()).to.equal(3);
    expect(c.running()).to.equal(0);
  });

  it('depth 1 waits for each commit before the next starts', async () => {
    const c = commits();
    const pipeline = new CommitPipeline(1);
    await pipeline.add(c.make(0));
    const second = pipeline.add(c.make(1));
    await turn();
    expect(c.started).to.deep.equal([0]);
    c.finish[0]!();
    await second;
    c.finish[1]!();
    await pipeline.drain();
    expect(c.most()).to.equal(1);
  });

  it('throws the first refused commit from the next add, and starts no more', async () => {
    const c = commits();
    const pipeline = new CommitPipeline(2);
    await pipeline.add(c.make(0));
    await pipeline.add(c.make(1));
    c.finish[0]!(new Error('disk full'));
    c.finish[1]!(new Error('second failure'));
    await turn();
    let thrown: unknown;
    try {
      await pipeline.add(c.make(2));
    } catch (e) {
      thrown = e;
    }
    expect((thrown as Error | undefined)?.message).to.equal('disk full');
    expect(c.started).to.deep.equal([0, 1]);
    let drained: unknown;
    await pipeline.drain().catch((e: unknown) => { drained = e; });
    expect((drained as Error | undefined)?.message).to.equal('disk full');
  });

  it('idle() waits for every commit started and never throws', async () => {
    const c = commits();
    const pipeline = new CommitPipeline(4);
    for (let n = 0; n < 3; n++) await pipeline.add(c.make(n));
    let idle = false;
    const waiting = pipeline.idle().then(() => { idle = true; });
    c.finish[0]!(new Error('refused'));
    c.finish[1]!();
    await turn();
    expect(idle, 'one commit is still running').to.equal(false);
    c.finish[2]!();
    await waiting;
    expect(idle).to.equal(true);
    expect(c.running()).to.equal(0);
  });
});
