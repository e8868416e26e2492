import { billingMonth, PLANS } from '../billing.rules';
import { periodStatement, planSegments } from './billing-period.rules';

// November 2026: 30 days.
const month = billingMonth(new Date('2026-11-20T12:00:00Z'));
const day = (d: number) => new Date(Date.UTC(2026, 10, d));

describe('billing month rules (spec §9)', () => {
  it('a whole month on one plan: the included words, overage at the plan rate per 1,000 words, the full price', () => {
    const segments = planSegments(month, 'starter', []);
    expect(segments).toEqual([{ plan: 'starter', start: month.start, end: month.end }]);
    const s = periodStatement(PLANS, month, segments, [7_400]);
    expect(s).toMatchObject({ words: 7_400, included_words: 5_000, overage_words: 2_400, overage_cost: 6, plan_price: 30, amount_due: 36 });
    // Within the allowance nothing but the price is due.
    expect(periodStatement(PLANS, month, segments, [4_999])).toMatchObject({ overage_words: 0, overage_cost: 0, amount_due: 30 });
    expect(periodStatement(PLANS, month, planSegments(month, 'enterprise', []), [100_001])).toMatchObject({
      overage_words: 1,
      overage_cost: 0,
      amount_due: 1_000,
    });
  });

  it('whole-month amounts of both paid plans, exact to the cent', () => {
    const whole = (plan: 'starter' | 'enterprise', words: number) => periodStatement(PLANS, month, planSegments(month, plan, []), [words]);
    expect(whole('starter', 5_000).overage_cost).toBe(0);
    expect(whole('starter', 6_000)).toMatchObject({ overage_words: 1_000, overage_cost: 2.5, amount_due: 32.5 });
    expect(whole('starter', 5_500)).toMatchObject({ overage_words: 500, overage_cost: 1.25, amount_due: 31.25 });
    expect(whole('starter', 5_001)).toMatchObject({ overage_words: 1, overage_cost: 0 });
    expect(whole('starter', 15_000).amount_due).toBe(55);
    expect(whole('enterprise', 100_000)).toMatchObject({ overage_words: 0, amount_due: 1_000 });
    expect(whole('enterprise', 250_000)).toMatchObject({ overage_words: 150_000, overage_cost: 150, amount_due: 1_150 });
  });

  it('Free bills no words (its limit is daily calls)', () => {
    expect(PLANS.free.daily_api_calls).toBe(10);
    expect(periodStatement(PLANS, month, planSegments(month, 'free', []), [50_000])).toMatchObject({
      words: 50_000,
      included_words: null,
      overage_words: 0,
      amount_due: 0,
    });
  });

  it('the count resets each billing month and unused words do not roll over', () => {
    const december = billingMonth(new Date('2026-12-02T00:00:00Z'));
    expect(december.start).toEqual(month.end);
    // Whatever November left unused, December starts from its own allowance.
    expect(periodStatement(PLANS, december, planSegments(december, 'starter', []), [5_500])).toMatchObject({
      included_words: 5_000,
      overage_words: 500,
      overage_cost: 1.25,
    });
  });

  it('a change mid-month applies at once and prorates price and allowance by the time on each plan', () => {
    // Starter for the first 10 days, Enterprise for the remaining 20.
    const changes = [{ plan: 'enterprise' as const, previousPlan: 'starter' as const, at: day(11) }];
    const segments = planSegments(month, 'enterprise', changes);
    expect(segments).toEqual([
      { plan: 'starter', start: month.start, end: day(11) },
      { plan: 'enterprise', start: day(11), end: month.end },
    ]);
    const s = periodStatement(PLANS, month, segments, [2_000, 10_000]);
    // Starter: $30 x 1/3 = $10, 5,000 x 1/3 = 1,666 words included, 334 over at $2.50 per 1,000 = $0.835.
    expect(s.segments[0]).toMatchObject({ included_words: 1_666, overage_words: 334, overage_micros: 835_000, price_micros: 10_000_000 });
    // Enterprise: $1,000 x 2/3 = $666.67, 66,666 words included, none over.
    expect(s.segments[1]).toMatchObject({ included_words: 66_666, overage_words: 0 });
    expect(s).toMatchObject({ words: 12_000, included_words: 68_332, overage_words: 334, overage_cost: 0.84, plan_price: 676.67, amount_due: 677.5 });
  });

  it('a downgrade to Free stops word billing from the change on; changes outside the month are ignored', () => {
    const changes = [
      { plan: 'starter' as const, previousPlan: 'free' as const, at: new Date('2026-10-03T00:00:00Z') },
      { plan: 'free' as const, previousPlan: 'starter' as const, at: day(16) },
    ];
    const segments = planSegments(month, 'free', changes);
    expect(segments.map((x) => x.plan)).toEqual(['starter', 'free']);
    const s = periodStatement(PLANS, month, segments, [3_000, 9_000]);
    expect(s).toMatchObject({ included_words: 2_500, overage_words: 500, overage_cost: 1.25, plan_price: 15, amount_due: 16.25 });
  });

  it('a change at the very start of the month leaves no empty segment', () => {
    expect(planSegments(month, 'starter', [{ plan: 'starter', previousPlan: 'free', at: month.start }])).toEqual([
      { plan: 'starter', start: month.start, end: month.end },
    ]);
  });
});
