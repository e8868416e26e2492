/**
 * Polls a condition until it holds (for state owned by other processes, where no in-process drain exists).
 * Not a sleep: it returns as soon as the condition is true, and fails with the last value on timeout.
 */
export async function waitFor<T>(
  probe: () => Promise<T>,
  done: (v: T) => boolean,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let last: T = await probe();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what ?? 'condition'}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
    last = await probe();
  }
  return last;
}
