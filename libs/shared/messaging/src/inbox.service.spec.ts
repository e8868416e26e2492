import type { DataSource } from 'typeorm';
import { MessagingActivity } from './activity';
import { InboxService } from './inbox.service';

/** A DataSource stand-in whose transactions commit or roll back an in-memory inbox table. */
function memoryDataSource() {
  const inbox = new Set<string>();
  const ds = {
    async transaction<T>(fn: (em: unknown) => Promise<T>): Promise<T> {
      const staged = new Set<string>();
      const em = {
        async query(sql: string, params: string[]) {
          if (!sql.startsWith('INSERT INTO inbox_message')) throw new Error(`unexpected ${sql}`);
          const k = `${params[0]}|${params[1]}`;
          if (inbox.has(k) || staged.has(k)) return [];
          staged.add(k);
          return [{ event_id: params[1] }];
        },
      };
      const result = await fn(em);
      staged.forEach((k) => inbox.add(k));
      return result;
    },
  };
  return { ds: ds as unknown as DataSource, inbox };
}

const envelope = (id: string, seq = 1) => ({ id, topic: 'diagnostics.probe.v1', key: 'r', occurredAt: new Date().toISOString(), payload: { seq, runId: 'r' } });

describe('InboxService', () => {
  it('applies an event once per consumer, however often it is delivered', async () => {
    const { ds } = memoryDataSource();
    const inbox = new InboxService(ds, new MessagingActivity());
    const applied: number[] = [];
    const handler = async (p: { seq: number }) => void applied.push(p.seq);
    const id = '11111111-1111-4111-8111-111111111111';
    expect(await inbox.consume<'diagnostics.probe.v1'>('probe', envelope(id, 7), handler)).toEqual({ ack: true, duplicate: false });
    expect(await inbox.consume<'diagnostics.probe.v1'>('probe', envelope(id, 7), handler)).toEqual({ ack: true, duplicate: true });
    expect(applied).toEqual([7]);
    // Another consumer group has its own inbox.
    expect(await inbox.consume<'diagnostics.probe.v1'>('billing', envelope(id, 7), handler)).toEqual({ ack: true, duplicate: false });
    expect(applied).toEqual([7, 7]);
  });

  it('does not record the event when the handler fails, so a redelivery applies it', async () => {
    const { ds } = memoryDataSource();
    const inbox = new InboxService(ds, new MessagingActivity());
    const id = '22222222-2222-4222-8222-222222222222';
    await expect(inbox.consume('probe', envelope(id), async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    let applied = 0;
    await inbox.consume('probe', envelope(id), async () => void applied++);
    expect(applied).toBe(1);
  });

  it('rejects malformed envelopes and invalid payloads as poison', async () => {
    const { ds } = memoryDataSource();
    const inbox = new InboxService(ds, new MessagingActivity());
    await expect(inbox.consume('probe', { nope: true }, async () => undefined)).rejects.toMatchObject({ code: 'invalid_event' });
    await expect(
      inbox.consume('probe', { ...envelope('33333333-3333-4333-8333-333333333333'), topic: 'unknown.topic.v1' }, async () => undefined),
    ).rejects.toMatchObject({ code: 'invalid_event' });
    await expect(
      inbox.consume('probe', { ...envelope('44444444-4444-4444-8444-444444444444'), payload: { seq: -1, runId: '' } }, async () => undefined),
    ).rejects.toMatchObject({ code: 'invalid_event', status: 422 });
  });
});
