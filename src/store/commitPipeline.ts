// Commits that need not wait for one another (the chunks of one dataset's entries) are kept a
// few in flight. The embedded store's journal makes every record appended during one fsync
// durable with the next one (group commit, embedded/journal.ts), so a writer that awaited each chunk
// before building the next would pay a whole fsync per chunk: for a 100,000-row upload that
// is thousands of fsyncs in a row, and most of the upload's time.

export class CommitPipeline {
  private readonly inFlight: Array<Promise<void>> = [];
  private failure: { error: unknown } | undefined;

  /** `depth`: commits unfinished at once (1 waits for each before the next starts). */
  constructor(private readonly depth: number) {}

  /**
   * Starts `commit` once fewer than `depth` are unfinished. Throws the first failure of any
   * commit started before, so a writer stops at the first refused chunk.
   */
  async add(commit: () => Promise<void>): Promise<void> {
    this.check();
    while (this.inFlight.length >= Math.max(1, this.depth)) await this.inFlight.shift();
    this.check();
    this.inFlight.push(commit().catch((error: unknown) => {
      this.failure ??= { error };
    }));
  }

  /** Waits for every commit started; throws the first failure. */
  async drain(): Promise<void> {
    await this.idle();
    this.check();
  }

  /**
   * Waits for every commit started and never throws: a writer that stops (cancelled, or a
   * chunk refused) leaves nothing still being written behind it.
   */
  async idle(): Promise<void> {
    while (this.inFlight.length > 0) await Promise.all(this.inFlight.splice(0));
  }

  private check(): void {
    if (this.failure) throw this.failure.error;
  }
}
