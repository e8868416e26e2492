import { describe, expect, it } from 'vitest';
import { keyLimitBinds, usedShare } from './limits';

describe('keyLimitBinds', () => {
  it('hides the key limit behind a tighter plan limit (Free: 10 calls a day, key 1,000)', () => {
    expect(keyLimitBinds({ daily_api_calls: 10 }, { rate_limit: 1000 })).toBe(false);
  });

  it('shows the key limit when it is tighter than the plan', () => {
    expect(keyLimitBinds({ daily_api_calls: 10 }, { rate_limit: 5 })).toBe(true);
  });

  it('shows the key limit when the plan has no daily call limit (Starter, Enterprise)', () => {
    expect(keyLimitBinds({ daily_api_calls: null }, { rate_limit: 1000 })).toBe(true);
  });
});

describe('usedShare', () => {
  it('is the used part of the allowance, capped to 0..1', () => {
    expect(usedShare(3, 10)).toBe(0.3);
    expect(usedShare(12, 10)).toBe(1);
    expect(usedShare(5, null)).toBe(0);
  });
});
