// What the embedded store still does on the event loop for a write (encoding a commit,
// handing a durable record to the store's thread) holds the loop while it runs. Such steps
// share a budget per turn of the loop: once the steps of one turn have run for `sliceMs`,
// the next step waits for a later turn, so requests are answered between them however many
// writers (two jobs storing results, a task's progress) are under way. Waiting steps go
// first come, first served: a caller that has just had a step queues behind those already
// waiting, and a turn releases them one after another while its budget lasts (many small
// commits cost one turn, not one each). Between two turns the loop always polls for I/O
// once (a turn begins in a check phase that follows a poll phase since the last ended), so
// a waiting request is read and answered between them.
export class LoopBudget {
  /** When the current turn's steps began (performance.now()), while `open`. */
  private start = 0;
  /** A step has run in this turn of the loop. */
  private open = false;
  /** Steps waiting for a turn, oldest first. */
  private readonly waiting: Array<() => void> = [];
  /** A callback in the next check phase will end this turn. */
  private scheduled = false;
  /** The turn's first step ran outside a check phase (a request, an I/O callback): its check phase comes before the next poll. */
  private direct = false;

  /**
   * `rest`: after a turn whose steps held the loop for t ms, the next waiting step starts
   * no sooner than rest × t ms later (0: in the next turn), so that background work (a job's
   * result) leaves the loop that share of its time for requests however long it goes on.
   */
  constructor(readonly sliceMs: number, private readonly rest = 0) {}

  /** Resolves at once while this turn has budget left and no step waits, else in the turn that is this step's. */
  turn(): Promise<void> {
    if (this.waiting.length === 0) {
      if (!this.open) {
        this.begin(true);
        return Promise.resolve();
      }
      if (performance.now() - this.start < this.sliceMs) return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  private begin(direct: boolean): void {
    this.open = true;
    this.direct = direct;
    this.start = performance.now();
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.next());
  }

  /** A new turn of the loop: the budget is free again, and the step that has waited longest takes it. */
  private next(): void {
    this.scheduled = false;
    this.open = false;
    if (this.waiting.length === 0) return;
    const held = performance.now() - this.start;
    if (this.rest > 0 && held >= 1) {
      // Released from a timer: its check phase comes before the next poll, as for a direct step.
      this.scheduled = true;
      setTimeout(() => {
        this.scheduled = false;
        this.release(true);
      }, held * this.rest);
      return;
    }
    if (this.direct) {
      // The check phase of the iteration whose poll ran the last step: the next is released
      // in the next one, after the loop has polled again.
      this.direct = false;
      this.schedule();
      return;
    }
    this.release(false);
  }

  private release(direct: boolean): void {
    const first = this.waiting.shift();
    if (first === undefined) return;
    this.begin(direct);
    first();
    queueMicrotask(() => this.more());
  }

  /**
   * Runs after the synchronous part of the step just released (its continuation was queued
   * before this microtask): the next waiting step goes in the same turn while budget is left.
   */
  private more(): void {
    if (!this.open || this.waiting.length === 0 || performance.now() - this.start >= this.sliceMs) return;
    this.waiting.shift()!();
    queueMicrotask(() => this.more());
  }
}
