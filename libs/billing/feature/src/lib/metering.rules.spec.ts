import { PLANS } from './billing.rules';
import { meteringRules, minuteWindow, secondsUntilNextMinute, type MeteredCaller } from './metering.rules';

const now = new Date('2026-11-22T10:41:30.000Z');
const limits = { perIpPerMinute: 20, perIpPerDay: 200 };
const caller = (over: Partial<MeteredCaller>): MeteredCaller => ({ channel: 'api', userId: 'u1', keyId: 'k1', keyLimit: 1000, ip: '10.0.0.1', ...over });
const subjects = (c: MeteredCaller, plan = PLANS.free) => meteringRules(c, plan, now, limits).map((r) => [r.ref.subject, r.ref.window, r.limit]);

describe('metering rules: every translation path counts', () => {
  it('an API key: the owner plan (Free: 10 a day) and the key limit', () => {
    expect(subjects(caller({}))).toEqual([
      ['user:u1:api-calls', 'd:2026-11-22', 10],
      ['key:k1:requests', 'd:2026-11-22', 1000],
    ]);
    expect(subjects(caller({ keyLimit: null }))).toEqual([['user:u1:api-calls', 'd:2026-11-22', 10]]);
  });

  it('a session (dashboard test translator, Socket.IO) shares the plan counter of the API', () => {
    expect(subjects(caller({ channel: 'web', keyId: null }))).toEqual([['user:u1:api-calls', 'd:2026-11-22', 10]]);
  });

  it('paid plans have no daily call limit; their words are billed from usage', () => {
    expect(subjects(caller({ channel: 'web', keyId: null }), PLANS.starter)).toEqual([]);
    expect(subjects(caller({}), PLANS.enterprise)).toEqual([['key:k1:requests', 'd:2026-11-22', 1000]]);
  });

  it('the anonymous public translator: per client IP, per minute and per day', () => {
    expect(subjects(caller({ channel: 'public', userId: null, keyId: 'public', keyLimit: null }))).toEqual([
      ['public-ip:10.0.0.1', 'm:2026-11-22T10:41', 20],
      ['public-ip:10.0.0.1', 'd:2026-11-22', 200],
    ]);
  });

  it('refusals are 429 with the seconds to the window end', () => {
    const [minute, day] = meteringRules(caller({ channel: 'public' }), PLANS.free, now, limits);
    expect(minute.refusal()).toMatchObject({ status: 429, details: { retryAfterSeconds: 30 } });
    expect(day.refusal().details).toEqual({ retryAfterSeconds: 13 * 3600 + 18 * 60 + 30 });
    const [plan] = meteringRules(caller({}), PLANS.free, now, limits);
    expect(plan.refusal()).toMatchObject({ status: 429, code: 'plan_limit_reached' });
    expect(plan.refusal().message).toMatch(/^Daily limit reached: the Free plan allows 10 API calls per day/);
  });

  it('minute windows', () => {
    expect(minuteWindow(now)).toBe('m:2026-11-22T10:41');
    expect(secondsUntilNextMinute(new Date('2026-11-22T10:41:59.500Z'))).toBe(1);
    expect(secondsUntilNextMinute(new Date('2026-11-22T10:41:00.000Z'))).toBe(60);
  });
});
