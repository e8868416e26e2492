import { Client } from 'pg';
import request from 'supertest';
import type { TestApp } from '@gaia/testing';
import { ManualClock } from '@gaia/shared/kernel';
import { signUp, startApi } from './support/api-app';
import { realAgent, TINY_ES_QU } from './fixtures/real-agent';

const WARM_UP = 3;
const touching0 = (seen: string[], re: RegExp) => seen.filter((sql) => re.test(sql));
const MEASURED = 20;

/**
 * The lean request path (issue #13), counted rather than timed: once a key, its agent and its quota lease are
 * warm, an API translation of a paid user reads nothing from the identity, agents or billing tables. Every
 * query the process sends is captured (node-postgres `Client#query`); what remains is the usage writes (and
 * the lease bookkeeping written once a second). The translation service is the real one, with a real agent learned
 * from a tiny made-up corpus, so its own reads count too. The full count per translation is measured by
 * `npm run bench:scale -- --api-only`.
 */
describe('Postgres queries of a warm API translation', () => {
  let t: TestApp & { url: string };
  // The app's clock stands still: the plan and key-owner memories of the quota leases last PLAN_CACHE_MS on it, and
  // on a loaded machine the 23 translations took longer than that on the system clock (a full authorization then
  // read billing_plan / billing_key_owner once, by timing luck).
  const clock = new ManualClock(new Date());
  beforeAll(async () => {
    t = await startApi({ clock });
  });
  afterAll(() => t?.close());

  it('no identity, agents or quota read per translation once warm', async () => {
    const u = await signUp(t.url, 'lean');
    await t.dataSource.query(`INSERT INTO billing_plan (user_id, plan, changed_at) VALUES ($1, 'enterprise', now())`, [u.uid]);
    const agentId = await realAgent(t, u, { srcLang: 'es', tgtLang: 'qu', pairs: TINY_ES_QU, public: true });
    const key = (await u.agent.post('/api/api-keys/create/').set('X-CSRF-Token', u.csrf).send({ name: 'lean' }).expect(200)).body.api_key as string;
    const translate = (i: number) =>
      request(t.url)
        .post('/api/translate/')
        .set('X-API-Key', key)
        .send({ text: `buenos días ${i}`, model_id: agentId, src_lang: 'es', tgt_lang: 'qu', stream: false })
        .expect(200);
    for (let i = 0; i < WARM_UP; i++) await translate(i);

    const seen: string[] = [];
    const query = Client.prototype.query;
    Client.prototype.query = function (this: Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string };
      seen.push(typeof first === 'string' ? first : (first?.text ?? ''));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      for (let i = 0; i < MEASURED; i++) await translate(WARM_UP + i);
    } finally {
      Client.prototype.query = query;
    }
    // The capture sees the usage writes: the real translation service has billing store them directly
    // (billing.record-usage.v1), through the outbox only when billing cannot answer.
    expect(touching0(seen, /INSERT INTO (billing_usage|outbox_event)/).length).toBeGreaterThan(0);
    const touching = (re: RegExp) => touching0(seen, re);
    expect(touching(/\bidentity_(user|api_key|session)\b/)).toEqual([]);
    expect(touching(/\bFROM agent\b/)).toEqual([]);
    expect(touching(/\bbilling_(plan|key_owner|counter)\b/)).toEqual([]);
    // The authorizations taken from the lease are written in batches (once a second), never once per request.
    expect(touching(/INSERT INTO billing_authorization/).length).toBeLessThan(MEASURED / 2);
  });
});
