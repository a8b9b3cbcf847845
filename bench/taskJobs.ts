// Worker functions of the task benchmark (run in the engine's worker threads).

/** Keeps one core busy for `ms`. */
export function spin(input: { ms: number }): number {
  const until = Date.now() + input.ms;
  let x = 0;
  while (Date.now() < until) x += Math.sqrt(x + 1);
  return x;
}
