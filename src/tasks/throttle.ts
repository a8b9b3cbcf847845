// Progress writes are throttled: a job may report progress thousands of times
// a second, but each store write is journaled and fsynced.

/** Calls `flush` at most once per `intervalMs`, trailing: the last call is never lost. */
export class Throttle {
  private last = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly intervalMs: number, private readonly flush: () => void) {}

  request(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.last + this.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.last = Date.now();
      this.flush();
    }, wait);
    this.timer.unref();
  }

  /** Drops a pending flush (the task's next write supersedes it). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
