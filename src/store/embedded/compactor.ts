// Snapshots without stalling the API: when the journal closes a segment, a worker thread
// (src/store/compactWorker.ts) writes a new snapshot from the previous one plus the closed
// segments; only after it is durable are the files it replaces deleted. One compaction
// at a time; segments closed meanwhile are taken by the next one.
import { unlink } from 'node:fs/promises';
import { firstMessage, startThread, threadModule } from '../../threads/threadModule.ts';
import { obsolete, type ReplayPlan } from './layout.ts';
import type { CompactJob } from './compactWorker.ts';

const WORKER_URL = threadModule('./compactWorker.ts', import.meta.url);

export class Compactor {
  /** Index of the newest durable snapshot (0 = none yet: replay from segment 0). */
  private snapshot: number;
  /** Highest segment index known to be closed (every segment below it is). */
  private closedBelow: number;
  private running: Promise<void> | undefined;
  /** Readers (replica loads) still reading files; deletion waits for them. */
  private pins = 0;
  private closed = false;

  constructor(private readonly dir: string, snapshot: number | null, private readonly log: (m: unknown) => void) {
    this.snapshot = snapshot ?? 0;
    this.closedBelow = this.snapshot;
    // A crash between a snapshot's rename and the deletions leaves files to remove.
    void this.cleanup();
  }

  get latest(): number {
    return this.snapshot;
  }

  /** The journal closed every segment below `segment`. */
  closedUpTo(segment: number): void {
    this.closedBelow = Math.max(this.closedBelow, segment);
    this.kick();
  }

  /** Resolves when no compaction is running or due. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  pin(): void {
    this.pins++;
  }

  unpin(): void {
    this.pins--;
    if (this.pins === 0) void this.cleanup();
  }

  private kick(): void {
    if (this.running || this.closed || this.closedBelow <= this.snapshot) return;
    const target = this.closedBelow;
    const segments = Array.from({ length: target - this.snapshot }, (_, i) => this.snapshot + i);
    const plan: ReplayPlan = { dir: this.dir, snapshot: this.snapshot > 0 ? this.snapshot : null, segments };
    this.running = this.compact({ plan, target }).finally(() => {
      this.running = undefined;
      this.kick();
    });
  }

  private async compact(job: CompactJob): Promise<void> {
    const worker = startThread(WORKER_URL, { workerData: job });
    try {
      const result = await firstMessage<{ ok: boolean; message?: string }>(worker);
      if (!result.ok) throw new Error(result.message);
      this.snapshot = job.target;
      await this.cleanup();
    } catch (e) {
      // The journal still holds everything; the next rotation retries.
      if (!this.closed) this.log(new Error(`snapshot ${job.target} failed: ${(e as Error).message}`, { cause: e }));
    } finally {
      await worker.terminate();
    }
  }

  /** Deletes what the latest snapshot replaces, unless a reader is still loading it. */
  private async cleanup(): Promise<void> {
    if (this.pins > 0) return;
    for (const file of obsolete(this.dir, this.snapshot)) await unlink(file).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }
}
