// Every request of the client goes through here: a failure to connect names the URL and
// its cause (`cannot reach http://127.0.0.1:1/: connect ECONNREFUSED 127.0.0.1:1`), where
// fetch itself says only "fetch failed".
export class ConnectionError extends Error {}

/** The innermost cause's message (undici puts the socket's error under `cause`, sometimes twice). */
function causeOf(e: unknown): string {
  let cause: unknown = e;
  while (cause instanceof Error && cause.cause !== undefined) cause = cause.cause;
  if (cause instanceof AggregateError && cause.errors.length > 0) cause = cause.errors[0];
  if (cause instanceof Error) return cause.message || (cause as NodeJS.ErrnoException).code || cause.name;
  return String(cause);
}

export async function request(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    throw new ConnectionError(`cannot reach ${url}: ${causeOf(e)}`, { cause: e });
  }
}
