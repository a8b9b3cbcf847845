// The soak's short mode (npm run soak -- --short) against the real service in a child
// process: load, slow and broken clients, abandoned jobs, SIGKILL during uploads, model
// builds, snapshots and compactions, a full disk. Its goals are asserted loosely (the
// machine may be busy): no unexpected server error, no acknowledged write lost, nothing
// left Running or half-written, open files back near the start.
import { expect } from 'chai';
import { MODES, soak } from '../../scripts/soak/run.ts';
import { report, type SoakResult } from '../../scripts/soak/table.ts';

describe('soak (short mode)', function () {
  this.timeout(900_000);
  let result: SoakResult;

  before(async () => {
    result = await soak(MODES.short);
    if (process.env.SOAK_REPORT) console.log(report(result));
  });

  it('answers every request under load with 2xx or 503 with Retry-After', () => {
    const total = result.load.recorder.total();
    expect(total.n).to.be.greaterThan(50);
    const serverErrors = result.load.recorder.samples.filter((s) => /: 5\d\d /.test(s));
    expect(serverErrors, serverErrors.join('\n')).to.deep.equal([]);
    expect(total.bad + total.failed, result.load.recorder.samples.join('\n')).to.equal(0);
  });

  it('holds a steady state in which nothing written stays: every request answered, the store measured throughout', () => {
    const { steady } = result;
    const total = steady.recorder.total();
    expect(total.n).to.be.greaterThan(20);
    expect(total.bad + total.failed, steady.recorder.samples.join('\n')).to.equal(0);
    // Writes were made and undone: datasets uploaded and deleted, descriptor results deleted.
    expect(steady.recorder.summary('POST dataset, read, DELETE').ok).to.be.greaterThan(0);
    expect(steady.triples.length).to.be.greaterThan(1);
    expect(steady.rss.length).to.be.greaterThan(10);
    // Every thread's memory was sampled: the main thread's, and the job threads' (descriptor jobs ran).
    const kinds = new Set(steady.memory.map((m) => m.kind));
    expect([...kinds]).to.include.members(['main', 'pool']);
    expect(steady.memory.filter((m) => m.kind === 'main').every((m) => m.heapUsed > 0 && m.rss > m.heapTotal)).to.equal(true);
    // Each WASM memory is told by the package that made it: Oxigraph's in the main thread, RDKit's in the job threads.
    expect(steady.memory.filter((m) => m.kind === 'main').at(-1)?.wasm?.oxigraph).to.be.above(0);
    expect(steady.memory.filter((m) => m.kind === 'pool').some((m) => (m.wasm?.rdkit ?? 0) > 0)).to.equal(true);
  });

  it('keeps serving while slow clients trickle and others hang up, then frees what they held', () => {
    const { slow } = result;
    const failed = slow.probeMs.filter((ms) => !Number.isFinite(ms)).length;
    expect(slow.probeMs.length).to.be.greaterThan(5);
    expect(failed).to.equal(0);
    expect(slow.endedByServer).to.equal(slow.slowHeaders + slow.slowBodies);
    expect(slow.fdsAfter).to.be.at.most(slow.fdsBefore + 5);
    expect(slow.uploadsLeft).to.equal(0);
    // Jobs whose clients hung up at once: bounded by the quota, and all of them end.
    expect(slow.abandonedTasks).to.be.within(1, slow.abandoned);
    expect(slow.maxLive).to.be.at.most(slow.jobQuota);
    expect(slow.unfinished).to.equal(0);
  });

  it('loses no acknowledged write to a SIGKILL and leaves nothing Running or half-written', () => {
    for (const k of result.kills) {
      expect(k.problems, k.kind).to.deep.equal([]);
      expect(k.lost, k.kind).to.equal(0);
      expect(k.halfWritten, k.kind).to.equal(0);
      expect(k.strandedRunning, k.kind).to.equal(0);
      expect(k.uploadsLeft, k.kind).to.equal(0);
      if ('checkStoreFailures' in k) expect(k.checkStoreFailures, k.kind).to.equal(0);
    }
    expect(result.kills.map((k) => k.kind)).to.deep.equal(['upload', 'model', 'snapshot', 'compaction']);
  });

  it('survives every disk-full cycle: 507 with a report while full, reads served, nothing lost, writes again once there is room', function () {
    const f = result.diskFull;
    // Mounting a tmpfs needs root (CI runs as root); elsewhere the phase says why it did not run.
    if (f.skipped) this.skip();
    expect(f.problems).to.deep.equal([]);
    expect(f.survived).to.equal(f.cycles);
    expect(Object.keys(f.whileFull).filter((k) => !['507', '503', '2xx'].includes(k))).to.deep.equal([]);
    expect(f.whileFull['507'] ?? 0).to.be.greaterThan(0);
    expect(f.readsFailedWhileFull).to.equal(0);
    expect(f.lost).to.equal(0);
    expect(f.halfWritten).to.equal(0);
    expect(f.unfinishedJobs).to.equal(0);
    expect(f.checkStore).to.match(/consistent$/);
  });
});
