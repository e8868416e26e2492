import { ManualClock } from '@gaia/shared/kernel';
import { billingMonth, dayWindow, lastDays, secondsUntilNextUtcDay, tokenCost } from './billing.rules';

describe('token cost (spec §9: $3 / 1M input + $15 / 1M output)', () => {
  it('is exact in micro-dollars', () => {
    expect(tokenCost(1_000_000, 1_000_000)).toMatchObject({ input_cost: 3, output_cost: 15, total_cost: 18 });
    expect(tokenCost(120, 80)).toMatchObject({ input_cost: 0.00036, output_cost: 0.0012, total_cost: 0.00156, micros: 1560 });
    expect(tokenCost(0, 0).total_cost).toBe(0);
    // 0.1 + 0.2 style float drift must not appear
    expect(tokenCost(33_333, 66_667).total_cost).toBe(1.100004);
  });
});

describe('UTC windows', () => {
  const clock = new ManualClock(new Date('2026-03-31T23:59:59.250Z'));
  it('day window and Retry-After up to the next UTC midnight', () => {
    expect(dayWindow(clock.now())).toBe('d:2026-03-31');
    expect(secondsUntilNextUtcDay(clock.now())).toBe(1);
    clock.advance(750);
    expect(dayWindow(clock.now())).toBe('d:2026-04-01');
    expect(secondsUntilNextUtcDay(clock.now())).toBe(86_400);
    clock.set(new Date('2026-04-01T18:30:00.000Z'));
    expect(secondsUntilNextUtcDay(clock.now())).toBe(5.5 * 3600);
  });
  it('billing month is the calendar month in UTC, across the year end', () => {
    expect(billingMonth(new Date('2026-12-31T23:00:00Z'))).toEqual({ start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
    expect(billingMonth(new Date('2026-02-10T00:00:00Z')).end).toEqual(new Date('2026-03-01T00:00:00Z'));
  });
  it('lists the last days oldest first, today included', () => {
    expect(lastDays(new Date('2026-03-02T05:00:00Z'), 3)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
  });
});
