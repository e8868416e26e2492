import { setTimeout as delay } from 'node:timers/promises';

/**
 * Re-reads `read` every `intervalMs` until `done` holds, and answers that value; throws after `timeoutMs`.
 * For a command line waiting on work that the platform's workers do (no event stream to subscribe to).
 */
export async function waitUntil<T>(read: () => Promise<T>, done: (v: T) => boolean, o: { intervalMs: number; timeoutMs: number; what: string }): Promise<T> {
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${o.what}`);
    await delay(o.intervalMs);
  }
}
