// Login attempts per client address (429 with Retry-After and the RateLimit fields). A sliding window
// of attempt times per address; idle addresses are forgotten so the map stays small.
import { TooManyRequests } from '../errors.ts';
import { rateLimitHeaders } from '../http/rateLimitFields.ts';

export class RateLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(private readonly limit: number, private readonly windowSeconds: number, private readonly now: () => number = Date.now) {}

  /** Counts one attempt from `address`; throws 429 when it is over the limit. */
  hit(address: string): void {
    if (this.limit <= 0) return;
    const now = this.now();
    const since = now - this.windowSeconds * 1000;
    const times = (this.attempts.get(address) ?? []).filter((t) => t > since);
    const [oldest] = times;
    if (oldest !== undefined && times.length >= this.limit) {
      this.attempts.set(address, times);
      const retry = Math.max(1, Math.ceil((oldest - since) / 1000));
      throw new TooManyRequests(`too many login attempts from ${address}: at most ${this.limit} per ${this.windowSeconds} s`,
        rateLimitHeaders({ name: 'login', quota: this.limit, windowSeconds: this.windowSeconds }, 0, retry));
    }
    times.push(now);
    this.attempts.set(address, times);
    if (this.attempts.size > 10_000) this.forgetIdle(since);
  }

  private forgetIdle(since: number): void {
    // Every stored list holds the attempt that created it, the newest last.
    for (const [address, times] of this.attempts) if (times[times.length - 1]! <= since) this.attempts.delete(address);
  }
}
