import type { EntityManager } from 'typeorm';
import { USAGE_STORED_BY_BILLING, UsageRecorder, usageEventId, type UsageOutbox, type UsageRecordedV1, type UsageRpc } from './usage-recorder';

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
