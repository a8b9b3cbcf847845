// Waiting in a test for what another process, thread or timer does: `probe` is asked again
// every `everyMs` until it answers a value (anything but undefined or false), which is
// returned; past `ms` the wait fails with `what` in the message. With `ignoreErrors`, a probe
// that throws (a process not listening yet) counts as "not yet".
export interface UntilOptions {
  everyMs?: number;
  ignoreErrors?: boolean;
}

export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, ms = 15_000, options: UntilOptions = {}): Promise<T> {
  const { everyMs = 50, ignoreErrors = false } = options;
  const deadline = Date.now() + ms;
  for (;;) {
    let value: T | undefined | false;
    try {
      value = await probe();
    } catch (e) {
      if (!ignoreErrors) throw e;
      value = undefined;
    }
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
