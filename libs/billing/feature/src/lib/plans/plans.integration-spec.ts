import { randomUUID } from 'node:crypto';
import type { UsageRecordedV1 } from '@gaia/contracts';
import { billingSchema } from '@gaia/billing/data-access';
import { ManualClock } from '@gaia/shared/kernel';
import { OUTBOX, RPC_CLIENT, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import { createTestApp, type TestApp } from '@gaia/testing';
import { BillingModule } from '../billing.module';

describe('plans as a product on the real Postgres: requests, grants, metering per billing month with proration', () => {
  // November 2026 has 30 days.
  const clock = new ManualClock(new Date('2026-11-01T00:00:00.000Z'));
  let t: TestApp;
  let rpc: RpcClient;

  beforeAll(async () => {
    t = await createTestApp({ schemas: [billingSchema], consumers: ['billing'], imports: [BillingModule.forRoot({ clock })] });
    rpc = t.app.get<RpcClient>(RPC_CLIENT);
  });
  afterAll(() => t.close());

  async function translateWords(userId: string, sourceWords: number): Promise<void> {
    const u: UsageRecordedV1 = {
      requestId: randomUUID(),
      keyId: null,
      userId,
      agentId: 'agent-1',
      sourceWords,
      inputTokens: 10,
      outputTokens: 10,
      engine: 'builtin',
      fallbackReason: null,
      latencyMs: 5,
      occurredAt: clock.now().toISOString(),
    };
    await t.dataSource.transaction((em) => t.app.get<Outbox>(OUTBOX).add(em, 'usage.recorded.v1', u));
    await t.drain();
  }

  it('Get Started: Free applies at once; Starter is a pending request (the same when asked again) that set-plan grants', async () => {
    expect(await rpc.call('billing.request-plan.v1', { userId: 'ana', plan: 'free' })).toMatchObject({ status: 'active', plan: { id: 'free' }, request: null });
    const first = await rpc.call('billing.request-plan.v1', { userId: 'ana', plan: 'starter' });
    expect(first).toMatchObject({
      status: 'requested',
      plan: { id: 'free' },
      request: { user_id: 'ana', plan: 'starter', status: 'pending', granted_at: null },
    });
    const again = await rpc.call('billing.request-plan.v1', { userId: 'ana', plan: 'starter' });
    expect(again.request?.id).toBe(first.request?.id);
    await rpc.call('billing.request-plan.v1', { userId: 'ben', plan: 'enterprise' });
    expect((await rpc.call('billing.list-plan-requests.v1', {})).requests.map((r) => [r.user_id, r.plan, r.status])).toEqual([
      ['ana', 'starter', 'pending'],
      ['ben', 'enterprise', 'pending'],
    ]);
    // Still Free until the operator grants it.
    expect((await rpc.call('billing.get-plan.v1', { userId: 'ana' })).id).toBe('free');
    await rpc.call('billing.set-plan.v1', { userId: 'ana', plan: 'starter' });
    expect((await rpc.call('billing.list-plan-requests.v1', {})).requests.map((r) => r.user_id)).toEqual(['ben']);
    expect((await rpc.call('billing.list-plan-requests.v1', { status: 'all' })).requests.find((r) => r.user_id === 'ana')).toMatchObject({
      status: 'granted',
      granted_at: '2026-11-01T00:00:00.000Z',
    });
    // Asking for the plan one already has answers it as active.
    expect(await rpc.call('billing.request-plan.v1', { userId: 'ana', plan: 'starter' })).toMatchObject({ status: 'active', plan: { id: 'starter' } });
  });

  it('usage summary: words on the source text against the included words, overage at the rate, proration on a change, reset next month', async () => {
    const user = 'carla';
    await rpc.call('billing.set-plan.v1', { userId: user, plan: 'starter' });
    await translateWords(user, 1_200);
    clock.set(new Date('2026-11-09T12:00:00.000Z'));
    await translateWords(user, 800);
    let period = (await rpc.call('billing.usage-summary.v1', { userId: user })).period;
    expect(period).toMatchObject({ words: 2_000, included_words: 5_000, overage_words: 0, overage_cost: 0, plan_price: 30, amount_due: 30 });

    // Day 11: upgrade to Enterprise — the first 10 days bill at Starter (a third of the month), the rest at Enterprise.
    clock.set(new Date('2026-11-11T00:00:00.000Z'));
    await rpc.call('billing.set-plan.v1', { userId: user, plan: 'enterprise' });
    await translateWords(user, 10_000);
    period = (await rpc.call('billing.usage-summary.v1', { userId: user })).period;
    expect(period.segments).toEqual([
      {
        plan: 'starter',
        start: '2026-11-01T00:00:00.000Z',
        end: '2026-11-11T00:00:00.000Z',
        share: 1 / 3,
        words: 2_000,
        included_words: 1_666,
        overage_words: 334,
        overage_cost: 0.84,
        plan_price: 10,
      },
      {
        plan: 'enterprise',
        start: '2026-11-11T00:00:00.000Z',
        end: '2026-12-01T00:00:00.000Z',
        share: 2 / 3,
        words: 10_000,
        included_words: 66_666,
        overage_words: 0,
        overage_cost: 0,
        plan_price: 666.67,
      },
    ]);
    expect(period).toMatchObject({ words: 12_000, included_words: 68_332, overage_words: 334, overage_cost: 0.84, plan_price: 676.67, amount_due: 677.5 });

    // December: the count starts again from zero on Enterprise alone; November's unused words are gone.
    clock.set(new Date('2026-12-02T00:00:00.000Z'));
    await translateWords(user, 150);
    period = (await rpc.call('billing.usage-summary.v1', { userId: user })).period;
    expect(period).toMatchObject({
      start: '2026-12-01T00:00:00.000Z',
      words: 150,
      included_words: 100_000,
      overage_words: 0,
      plan_price: 1_000,
      amount_due: 1_000,
    });
    expect(period.segments).toHaveLength(1);
  });
});
