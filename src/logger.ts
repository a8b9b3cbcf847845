// The service's log: JSON lines (one object per event) through pino, at the level
// LOG_LEVEL sets. Messages and errors pass through redact() first, so no token, password or
// URI user-info reaches the log (the same rule as error reports, src/util/redact.ts).
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.ts';
import { redact } from './util/redact.ts';

export type { Logger };

/** An error as logged: type, redacted message and stack, and its cause. */
function errorOf(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: redact(String(err)) };
  const s = stdSerializers.err(err) as unknown as Record<string, unknown>;
  return { ...s, message: redact(String(s.message ?? '')), stack: redact(String(s.stack ?? '')) };
}

/** A logger writing JSON lines to `destination` (standard output by default). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    serializers: { err: errorOf },
    hooks: {
      // Messages may quote what a client sent (URIs with user-info, tokens in queries).
      logMethod(this: Logger, args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? redact(a) : a)));
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * For modules that take a plain `(message) => void` (the store, the error middleware): an
 * Error is logged at error level with its stack, anything else as a warning.
 */
export function logSink(logger: Logger): (message: unknown) => void {
  return (m) => {
    if (m instanceof Error) logger.error({ err: m }, m.message);
    else logger.warn(String(m));
  };
}
