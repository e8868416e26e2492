import type { EntityManager } from 'typeorm';
import {
  USAGE_LINGER_MS,
  USAGE_LINGER_RECORDS,
  USAGE_STORED_BY_BILLING,
  UsageRecorder,
  usageEventId,
  type UsageOutbox,
  type UsageRecordedV1,
  type UsageRpc,
} from './usage-recorder';

const usage = (requestId: string): UsageRecordedV1 => ({
  requestId,
  keyId: 'k',
  userId: 'u',
  agentId: 'a',
  sourceWords: 1,
  inputTokens: 1,
  outputTokens: 1,
  engine: 'builtin',
  fallbackReason: null,
  latencyMs: 1,
  occurredAt: '2026-11-24T00:00:00.000Z',
});

/** A transaction whose commit the test releases by hand. */
function manualStore(billing: UsageRpc | null = null) {
  const writes: Array<{ topic: string; payload: unknown; id?: string; commit: () => void; fail: (e: Error) => void }> = [];
  const outbox = {
    add: (_em: EntityManager, topic: string, payload: unknown, opts?: { id?: string }) =>
      new Promise<string>((resolve, reject) => writes.push({ topic, payload, id: opts?.id, commit: () => resolve(opts?.id ?? 'generated'), fail: reject })),
  } as unknown as UsageOutbox;
  const uow = { run: <T>(work: (em: EntityManager) => Promise<T>) => work({} as EntityManager) };
  return { writes, recorder: new UsageRecorder(uow, outbox, billing) };
}

const settled = <T>(p: Promise<T>) => {
  const s = { done: false };
  void p.then(
    () => (s.done = true),
    () => (s.done = true),
  );
  return s;
};
const tick = () => new Promise((r) => setImmediate(r));

describe('UsageRecorder group commit', () => {
  it('writes a lone record at once as usage.recorded.v1 with the id derived from the request id', async () => {
    const { writes, recorder } = manualStore();
    const p = recorder.record(usage('r1'));
    await tick();
    expect(writes.map((w) => [w.topic, w.id])).toEqual([['usage.recorded.v1', usageEventId('r1')]]);
    writes[0].commit();
    await expect(p).resolves.toBe(usageEventId('r1'));
  });

  it('queues what completes during a write and commits it as one batch event; nobody is answered before its commit', async () => {
    const { writes, recorder } = manualStore();
    const first = recorder.record(usage('r1'));
    await tick();
    const later = ['r2', 'r3', 'r4'].map((id) => recorder.record(usage(id)));
    const states = later.map(settled);
    await tick();
    expect(writes).toHaveLength(1); // the batch waits for the write under way
    writes[0].commit();
    await first;
    await tick();
    expect(writes).toHaveLength(2);
    expect(writes[1].topic).toBe('usage.recorded-batch.v1');
    expect((writes[1].payload as { records: UsageRecordedV1[] }).records.map((r) => r.requestId)).toEqual(['r2', 'r3', 'r4']);
    expect(states.every((s) => !s.done)).toBe(true);
    writes[1].commit();
    await expect(Promise.all(later)).resolves.toEqual([writes[1].id, writes[1].id, writes[1].id]);
  });

  it('a failed write fails only its own records; the next ones are written', async () => {
    const { writes, recorder } = manualStore();
    const first = recorder.record(usage('r1'));
    await tick();
    const second = recorder.record(usage('r2'));
    writes[0].fail(new Error('database down'));
    await expect(first).rejects.toThrow('database down');
    await tick();
    writes[1].commit();
    await expect(second).resolves.toBe(usageEventId('r2'));
  });

  it('billing stores the batch directly when it answers (no outbox event); the outbox takes it when billing fails', async () => {
    const calls: string[][] = [];
    let up = true;
    const billing: UsageRpc = {
      call: async (_name, req) => {
        calls.push(req.records.map((r) => r.requestId));
        if (!up) throw new Error('billing is unavailable right now');
        return { recorded: req.records.length };
      },
    };
    const { writes, recorder } = manualStore(billing);
    await expect(recorder.record(usage('r1'))).resolves.toBe(USAGE_STORED_BY_BILLING);
    expect(writes).toHaveLength(0);
    up = false;
    const failing = recorder.record(usage('r2'));
    await tick();
    expect(writes.map((w) => [w.topic, w.id])).toEqual([['usage.recorded.v1', usageEventId('r2')]]);
    writes[0].commit();
    await expect(failing).resolves.toBe(usageEventId('r2'));
    expect(calls).toEqual([['r1'], ['r2']]);
  });
});

describe('UsageRecorder waits for the translations still running', () => {
  // the wait's timer moves only when a test advances it (a loaded machine never lets it fire between two steps)
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('a translation alone is written at once when it completes', async () => {
    const { writes, recorder } = manualStore();
    const p = recorder.begin().record(usage('r1'));
    await tick();
    expect(writes.map((w) => w.id)).toEqual([usageEventId('r1')]);
    writes[0].commit();
    await expect(p).resolves.toBe(usageEventId('r1'));
  });

  it('a record waits while others run and goes out in one write with theirs, once the last has completed', async () => {
    const { writes, recorder } = manualStore();
    const running = ['r1', 'r2', 'r3'].map(() => recorder.begin());
    const first = running[0].record(usage('r1'));
    const second = running[1].record(usage('r2'));
    await tick();
    expect(writes).toHaveLength(0); // r3 still running
    const third = running[2].record(usage('r3'));
    await tick();
    expect(writes).toHaveLength(1);
    expect((writes[0].payload as { records: UsageRecordedV1[] }).records.map((r) => r.requestId)).toEqual(['r1', 'r2', 'r3']);
    writes[0].commit();
    await expect(Promise.all([first, second, third])).resolves.toEqual([writes[0].id, writes[0].id, writes[0].id]);
  });

  it('a translation that ends without a record (failed) stops the wait', async () => {
    const { writes, recorder } = manualStore();
    const [a, b] = [recorder.begin(), recorder.begin()];
    const p = a.record(usage('r1'));
    await tick();
    expect(writes).toHaveLength(0);
    b.cancel();
    b.cancel(); // once only
    await tick();
    expect(writes.map((w) => w.id)).toEqual([usageEventId('r1')]);
    writes[0].commit();
    await expect(p).resolves.toBe(usageEventId('r1'));
    // the count stays right: a translation alone afterwards is not kept waiting
    const q = recorder.begin().record(usage('r2'));
    await tick();
    expect(writes).toHaveLength(2);
    writes[1].commit();
    await expect(q).resolves.toBe(usageEventId('r2'));
  });

  it(`writes once ${USAGE_LINGER_RECORDS} records wait, however many still run`, async () => {
    const { writes, recorder } = manualStore();
    const ids = Array.from({ length: USAGE_LINGER_RECORDS + 2 }, (_, i) => `r${i}`);
    const running = ids.map(() => recorder.begin());
    for (let i = 0; i < USAGE_LINGER_RECORDS; i++) void running[i].record(usage(ids[i]));
    await tick();
    expect(writes).toHaveLength(1);
    expect((writes[0].payload as { records: UsageRecordedV1[] }).records).toHaveLength(USAGE_LINGER_RECORDS);
  });

  it(`writes a waiting record after ${USAGE_LINGER_MS} ms even when others still run`, async () => {
    const { writes, recorder } = manualStore();
    const [a] = [recorder.begin(), recorder.begin()];
    const p = a.record(usage('r1'));
    await tick();
    jest.advanceTimersByTime(USAGE_LINGER_MS - 1);
    await tick();
    expect(writes).toHaveLength(0);
    jest.advanceTimersByTime(1);
    await tick();
    expect(writes.map((w) => w.id)).toEqual([usageEventId('r1')]);
    writes[0].commit();
    await expect(p).resolves.toBe(usageEventId('r1'));
  });

  it('records queued during a write wait for the running ones too, then go out together', async () => {
    const { writes, recorder } = manualStore();
    const first = recorder.begin().record(usage('r1'));
    await tick();
    const [b, c] = [recorder.begin(), recorder.begin()];
    const second = b.record(usage('r2'));
    writes[0].commit();
    await first;
    await tick();
    expect(writes).toHaveLength(1); // r2 waits for c
    const third = c.record(usage('r3'));
    await tick();
    expect((writes[1].payload as { records: UsageRecordedV1[] }).records.map((r) => r.requestId)).toEqual(['r2', 'r3']);
    writes[1].commit();
    await expect(Promise.all([second, third])).resolves.toEqual([writes[1].id, writes[1].id]);
  });
});
