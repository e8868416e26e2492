import { join } from 'node:path';
import { WorkerJobAbortedError, WorkerPool, type PoolMessage } from './worker-pool';

const PROBE = join(__dirname, 'fixtures/pool-probe.worker.cjs');
const IDLE_MS = 60_000;

interface Answer {
  threadId: number;
  echo?: string;
}

describe('WorkerPool', () => {
  let pool: WorkerPool;
  afterEach(() => pool.close());

  it('runs the next job on the thread the last one left idle', async () => {
    pool = new WorkerPool(PROBE, { maxIdle: 2, idleMs: IDLE_MS });
    const seen: PoolMessage[] = [];
    const a = await pool.run<Answer>({ echo: 'a' }, { onMessage: (m) => seen.push(m) });
    expect(a.echo).toBe('a');
    expect(seen.map((m) => m.type)).toEqual(['progress', 'done']);
    expect(pool.idleCount).toBe(1);
    const b = await pool.run<Answer>({ echo: 'b' });
    expect(b).toEqual({ threadId: a.threadId, echo: 'b' });
  });

  it('runs jobs at once on threads of their own and keeps at most maxIdle of them', async () => {
    pool = new WorkerPool(PROBE, { maxIdle: 2, idleMs: IDLE_MS });
    const answers = await Promise.all([1, 2, 3].map((i) => pool.run<Answer>({ echo: String(i) })));
    expect(new Set(answers.map((x) => x.threadId)).size).toBe(3);
    expect(pool.idleCount).toBe(2);
  });

  it('ends the thread of a job marked retire, and every thread when maxIdle is 0', async () => {
    pool = new WorkerPool(PROBE, { maxIdle: 2, idleMs: IDLE_MS });
    const a = await pool.run<Answer>({}, { retire: true });
    expect(pool.idleCount).toBe(0);
    const b = await pool.run<Answer>({});
    expect(b.threadId).not.toBe(a.threadId);
    const unpooled = new WorkerPool(PROBE, { maxIdle: 0, idleMs: IDLE_MS });
    await unpooled.run<Answer>({});
    expect(unpooled.idleCount).toBe(0);
  });

  it('rejects a job that reports an error, or whose thread exits, and does not reuse that thread', async () => {
    pool = new WorkerPool(PROBE, { maxIdle: 2, idleMs: IDLE_MS });
    const first = await pool.run<Answer>({});
    await expect(pool.run({ kind: 'fail' })).rejects.toThrow('asked to fail');
    expect(pool.idleCount).toBe(0);
    await expect(pool.run({ kind: 'crash' })).rejects.toThrow('exited with 3');
    const next = await pool.run<Answer>({});
    expect(next.threadId).not.toBe(first.threadId);
  });

  it('ends the thread of an aborted job and rejects it, and starts none for a job aborted before it runs', async () => {
    pool = new WorkerPool(PROBE, { maxIdle: 2, idleMs: IDLE_MS });
    const ctrl = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const hung = pool.run({ kind: 'hang' }, { signal: ctrl.signal, onMessage: (m) => m.type === 'started' && started() });
    await running;
    ctrl.abort();
    await expect(hung).rejects.toBeInstanceOf(WorkerJobAbortedError);
    // a job whose signal is already aborted starts no thread
    await expect(pool.run({}, { signal: ctrl.signal })).rejects.toBeInstanceOf(WorkerJobAbortedError);
    expect(pool.idleCount).toBe(0);
  });

  it('ends a thread left idle for idleMs', async () => {
    pool = new WorkerPool(PROBE, { maxIdle: 2, idleMs: 10 });
    await pool.run<Answer>({});
    expect(pool.idleCount).toBe(1);
    const deadline = Date.now() + 10_000;
    while (pool.idleCount > 0 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    expect(pool.idleCount).toBe(0);
  });
});
