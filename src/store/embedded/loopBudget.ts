// The embedded store's work is synchronous: a read, the encoding of a commit and the
// application of a durable record each hold the event loop while they run. The steps of one
// kind share a budget per turn of the loop: once the steps of one turn have run for
// `sliceMs`, the next step waits for a later turn, so requests are answered between them
// however many readers or writers (two jobs storing results, a task's progress) are under
// way. Callers woken by the same turn each check again, so they take one turn each rather
// than all running in the check phase that woke them.
import { setImmediate as nextTurn } from 'node:timers/promises';

export class LoopBudget {
  /** When the current turn's steps began (performance.now()), while `open`. */
  private start = 0;
  private open = false;

  constructor(readonly sliceMs: number) {}

  /** Resolves at once while this turn has budget left, else in the first later turn that has. */
  async turn(): Promise<void> {
    for (;;) {
      const now = performance.now();
      if (!this.open) {
        // The first step of a turn: the turn's budget starts now, and the next check phase ends it.
        this.open = true;
        this.start = now;
        setImmediate(() => {
          this.open = false;
        });
        return;
      }
      if (now - this.start < this.sliceMs) return;
      await nextTurn();
    }
  }
}
