import type { EventEnvelope } from '@gaia/contracts';
import { MessagingActivity } from './activity';
import { DeliveryRejected, type EventDeliverer } from './event-deliverer';
import { OutboxRelay, type ClaimedRow, type OutboxStore } from './outbox-relay';

/** In-memory outbox with the same claim/lease semantics as the Postgres store (time is manual). */
class MemoryStore implements OutboxStore {
  now = 0;
  rows: (ClaimedRow & { status: 'pending' | 'delivered' | 'dead'; due: number; error?: string })[] = [];
  add(topic: string, key: string | null, subscriber = 'probe'): string {
    const id = `00000000-0000-0000-0000-${String(this.rows.length + 1).padStart(12, '0')}`;
    this.rows.push({
      event_id: id,
      subscriber,
      attempts: 0,
      topic,
      key,
      payload: { n: this.rows.length },
      request_id: null,
      created_at: new Date(0),
      seq: String(this.rows.length + 1),
      status: 'pending',
      due: 0,
    });
    return id;
  }
  async claim(limit: number, leaseMs: number): Promise<ClaimedRow[]> {
    const due = this.rows.filter((r) => r.status === 'pending' && r.due <= this.now).slice(0, limit);
    for (const r of due) {
      r.attempts++;
      r.due = this.now + leaseMs;
    }
    return due.map((r) => ({ ...r }));
  }
  async markDelivered(id: string, sub: string): Promise<void> {
    const r = this.find(id, sub);
    r.status = 'delivered';
  }
  async markFailed(id: string, sub: string, dead: boolean, error: string, retryInMs: number): Promise<void> {
    const r = this.find(id, sub);
    r.status = dead ? 'dead' : 'pending';
    r.error = error;
    r.due = this.now + retryInMs;
  }
  async release(sub: string, ids: string[], retryInMs: number): Promise<void> {
    for (const id of ids) {
      const r = this.find(id, sub);
      r.attempts = Math.max(0, r.attempts - 1);
      r.due = this.now + retryInMs;
    }
  }
  private find(id: string, sub: string) {
    const r = this.rows.find((x) => x.event_id === id && x.subscriber === sub);
    if (!r) throw new Error('missing row');
    return r;
  }
}

class RecordingDeliverer implements EventDeliverer {
  delivered: EventEnvelope[] = [];
  failNext = new Map<string, { times: number; poison?: boolean }>();
  async deliver(_sub: string, env: EventEnvelope): Promise<void> {
    const f = this.failNext.get(env.id);
    if (f && f.times > 0) {
      f.times--;
      throw new DeliveryRejected('consumer down', !!f.poison);
    }
    this.delivered.push(env);
  }
}

function relay(store: MemoryStore, d: RecordingDeliverer, maxAttempts = 3) {
  return new OutboxRelay(store, d, new MessagingActivity(), { backoff: (a) => a * 100, maxAttempts, leaseMs: 10_000 });
}

describe('OutboxRelay', () => {
  it('delivers every pending event once and marks it delivered', async () => {
    const store = new MemoryStore();
    const d = new RecordingDeliverer();
    for (let i = 0; i < 5; i++) store.add('diagnostics.probe.v1', `k${i % 2}`);
    const r = relay(store, d);
    expect(await r.runOnce()).toBe(5);
    expect(await r.runOnce()).toBe(0);
    expect(d.delivered.map((e) => e.id).sort()).toEqual(store.rows.map((x) => x.event_id).sort());
    expect(store.rows.every((x) => x.status === 'delivered')).toBe(true);
  });

  it('keeps per-key order: a failure holds back later events of the same key, not other keys', async () => {
    const store = new MemoryStore();
    const d = new RecordingDeliverer();
    const a1 = store.add('t', 'A');
    const a2 = store.add('t', 'A');
    const b1 = store.add('t', 'B');
    d.failNext.set(a1, { times: 1 });
    const r = relay(store, d);
    await r.runOnce();
    expect(d.delivered.map((e) => e.id)).toEqual([b1]);
    // a2 was released without spending an attempt; both retry after the backoff.
    expect(store.rows.find((x) => x.event_id === a2)?.attempts).toBe(0);
    store.now += 1000;
    await r.runOnce();
    expect(d.delivered.map((e) => e.id)).toEqual([b1, a1, a2]);
  });

  it('retries with backoff and gives up as dead after maxAttempts', async () => {
    const store = new MemoryStore();
    const d = new RecordingDeliverer();
    const id = store.add('t', null);
    d.failNext.set(id, { times: 99 });
    const r = relay(store, d, 3);
    await r.runOnce();
    expect(await r.runOnce()).toBe(0); // not due yet: backoff
    store.now += 10_000;
    await r.runOnce();
    store.now += 10_000;
    await r.runOnce();
    expect(store.rows[0].status).toBe('dead');
    expect(store.rows[0].attempts).toBe(3);
    expect(d.delivered).toHaveLength(0);
  });

  it('dead-letters a poison event at once', async () => {
    const store = new MemoryStore();
    const d = new RecordingDeliverer();
    const id = store.add('t', null);
    d.failNext.set(id, { times: 1, poison: true });
    await relay(store, d).runOnce();
    expect(store.rows[0]).toMatchObject({ status: 'dead', attempts: 1 });
  });

  it('re-delivers after a lease expires (a relay that died mid-delivery)', async () => {
    const store = new MemoryStore();
    const d = new RecordingDeliverer();
    store.add('t', null);
    await store.claim(10, 10_000); // a crashed relay claimed it and vanished
    const r = relay(store, d);
    expect(await r.runOnce()).toBe(0);
    store.now += 10_001;
    expect(await r.runOnce()).toBe(1);
    expect(d.delivered).toHaveLength(1);
  });
});
