import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PlanId } from '@gaia/contracts';

export interface CounterRef {
  subject: string;
  window: string;
}

export interface AuthorizationEntity {
  requestId: string;
  userId: string | null;
  keyId: string | null;
  channel: 'api' | 'web' | 'public';
  plan: PlanId;
  counters: CounterRef[];
  status: 'allowed' | 'released';
  createdAt: Date;
}

export interface UsageEntity {
  requestId: string;
  keyId: string | null;
  userId: string | null;
  agentId: string;
  words: number;
  inputTokens: number;
  outputTokens: number;
  engine: string;
  fallbackReason: string | null;
  latencyMs: number;
  occurredAt: Date;
}

export interface UsageTotals {
  requests: number;
  words: number;
  inputTokens: number;
  outputTokens: number;
}

export interface DailyUsage extends UsageTotals {
  /** YYYY-MM-DD (UTC). */
  date: string;
}

/** Plans, quota counters and authorizations (all on the caller's EntityManager / transaction). */
export interface QuotaRepositoryPort {
  getPlan(em: EntityManager, userId: string): Promise<PlanId | null>;
  setPlan(em: EntityManager, userId: string, plan: PlanId, at: Date): Promise<PlanId | null>;
  /**
   * Atomically adds 1 to the counter of (subject, window) if it is below `limit`; answers the new count,
   * or null when the limit was already reached (nothing changed).
   */
  tryIncrement(em: EntityManager, ref: CounterRef, limit: number): Promise<number | null>;
  decrement(em: EntityManager, ref: CounterRef): Promise<void>;
  count(em: EntityManager, ref: CounterRef): Promise<number>;
  /** Inserts a new authorization; false when the request id is already authorized (no change). */
  insertAuthorization(em: EntityManager, a: AuthorizationEntity): Promise<boolean>;
  findAuthorization(em: EntityManager, requestId: string, opts?: { lock?: boolean }): Promise<AuthorizationEntity | null>;
  updateAuthorization(em: EntityManager, requestId: string, counters: CounterRef[], status: 'allowed' | 'released'): Promise<void>;
  /**
   * Reserves up to `want` units of a counter ahead of use (a lease): at most `1/share` of what is left below
   * `limit`, at least 1; answers the units granted (0 when the limit is reached) and the counter after it. One
   * statement, atomic across processes like `tryIncrement`: the counter never exceeds `limit`.
   */
  reserve(em: EntityManager, ref: CounterRef, limit: number, want: number, share: number): Promise<{ granted: number; count: number }>;
  /** Gives back `units` reserved and not used (an idle or closed lease). */
  giveBack(em: EntityManager, ref: CounterRef, units: number): Promise<void>;
  /** Inserts many new authorizations in one statement; answers the request ids that were new (others were known already). */
  insertAuthorizations(em: EntityManager, rows: AuthorizationEntity[]): Promise<Set<string>>;
  rememberKey(em: EntityManager, keyId: string, userId: string | null, rateLimit: number | null, at: Date): Promise<void>;
  findKey(em: EntityManager, keyId: string): Promise<{ userId: string | null; rateLimit: number | null } | null>;
}
export const QUOTA_REPOSITORY = Symbol('QUOTA_REPOSITORY');

/** Usage records (one per translate request id). */
export interface UsageRepositoryPort {
  /** False when the request id was already recorded. */
  insert(em: EntityManager, u: UsageEntity): Promise<boolean>;
  /** Many records in one statement; answers how many were new (a known request id is skipped). */
  insertMany(em: EntityManager, rows: UsageEntity[]): Promise<number>;
  /** Whether the request's usage was recorded (it translated). */
  recorded(em: EntityManager, requestId: string): Promise<boolean>;
  keyTotals(em: EntityManager, keyId: string): Promise<UsageTotals>;
  keyRequests(em: EntityManager, keyId: string, limit: number): Promise<UsageEntity[]>;
  userTotals(em: EntityManager, userId: string, from?: Date, to?: Date): Promise<UsageTotals>;
  userDaily(em: EntityManager, userId: string, from: Date, to: Date): Promise<DailyUsage[]>;
}
export const USAGE_REPOSITORY = Symbol('USAGE_REPOSITORY');

interface AuthRow {
  request_id: string;
  user_id: string | null;
  key_id: string | null;
  channel: 'api' | 'web' | 'public';
  plan: PlanId;
  counters: CounterRef[];
  status: 'allowed' | 'released';
  created_at: Date;
}

@Injectable()
export class PostgresQuotaRepository implements QuotaRepositoryPort {
  async getPlan(em: EntityManager, userId: string): Promise<PlanId | null> {
    const rows: { plan: PlanId }[] = await em.query(`SELECT plan FROM billing_plan WHERE user_id = $1`, [userId]);
    return rows[0]?.plan ?? null;
  }

  async setPlan(em: EntityManager, userId: string, plan: PlanId, at: Date): Promise<PlanId | null> {
    const prev: { plan: PlanId }[] = await em.query(`SELECT plan FROM billing_plan WHERE user_id = $1 FOR UPDATE`, [userId]);
    await em.query(
      `INSERT INTO billing_plan (user_id, plan, changed_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET plan = EXCLUDED.plan, changed_at = EXCLUDED.changed_at`,
      [userId, plan, at],
    );
    return prev[0]?.plan ?? null;
  }

  async tryIncrement(em: EntityManager, ref: CounterRef, limit: number): Promise<number | null> {
    if (limit <= 0) return null;
    // ON CONFLICT DO UPDATE locks the row and re-checks the WHERE on its latest version: concurrent
    // callers (any process) serialise on the row, so at most `limit` of them get a count back.
    const rows: { count: number }[] = await em.query(
      `INSERT INTO billing_counter (subject, window_key, count, updated_at) VALUES ($1, $2, 1, now())
       ON CONFLICT (subject, window_key) DO UPDATE SET count = billing_counter.count + 1, updated_at = now()
       WHERE billing_counter.count < $3
       RETURNING count`,
      [ref.subject, ref.window, limit],
    );
    return rows[0]?.count ?? null;
  }

  async reserve(em: EntityManager, ref: CounterRef, limit: number, want: number, share: number): Promise<{ granted: number; count: number }> {
    if (limit <= 0 || want <= 0) return { granted: 0, count: limit };
    const first = await this.grant(em, ref, limit, want, share);
    if (first.granted > 0) return first;
    // No row yet (first use of the window), or the limit is reached: create it at 0 and ask once more.
    await em.query(`INSERT INTO billing_counter (subject, window_key, count, updated_at) VALUES ($1, $2, 0, now()) ON CONFLICT DO NOTHING`, [
      ref.subject,
      ref.window,
    ]);
    return this.grant(em, ref, limit, want, share);
  }

  private async grant(em: EntityManager, ref: CounterRef, limit: number, want: number, share: number): Promise<{ granted: number; count: number }> {
    // The first step locks the row and reads its latest version (concurrent reservers serialise on it); a
    // top-level SELECT so the driver answers rows (an UPDATE … RETURNING answers [rows, count]).
    const rows: { granted: number; count: number }[] = await em.query(
      `WITH g AS (SELECT subject, window_key, LEAST($3::int, GREATEST(1, ($4::int - count) / $5::int)) AS granted
                  FROM billing_counter WHERE subject = $1 AND window_key = $2 AND count < $4 FOR UPDATE),
            u AS (UPDATE billing_counter c SET count = c.count + g.granted, updated_at = now() FROM g
                  WHERE c.subject = g.subject AND c.window_key = g.window_key RETURNING g.granted, c.count)
       SELECT granted, count FROM u`,
      [ref.subject, ref.window, want, limit, share],
    );
    return rows[0] ?? { granted: 0, count: limit };
  }

  async giveBack(em: EntityManager, ref: CounterRef, units: number): Promise<void> {
    if (units <= 0) return;
    await em.query(`UPDATE billing_counter SET count = GREATEST(count - $3, 0), updated_at = now() WHERE subject = $1 AND window_key = $2`, [
      ref.subject,
      ref.window,
      units,
    ]);
  }

  async insertAuthorizations(em: EntityManager, rows: AuthorizationEntity[]): Promise<Set<string>> {
    if (!rows.length) return new Set();
    const json = rows.map((a) => ({
      request_id: a.requestId,
      user_id: a.userId,
      key_id: a.keyId,
      channel: a.channel,
      plan: a.plan,
      counters: a.counters,
      status: a.status,
      created_at: a.createdAt.toISOString(),
    }));
    const inserted: { request_id: string }[] = await em.query(
      `INSERT INTO billing_authorization (request_id, user_id, key_id, channel, plan, counters, status, created_at)
       SELECT request_id, user_id, key_id, channel, plan, counters, status, created_at
       FROM jsonb_to_recordset($1::jsonb) AS x(request_id text, user_id text, key_id text, channel text, plan text, counters jsonb, status text, created_at timestamptz)
       ON CONFLICT (request_id) DO NOTHING RETURNING request_id`,
      [JSON.stringify(json)],
    );
    return new Set(inserted.map((r) => r.request_id));
  }

  async decrement(em: EntityManager, ref: CounterRef): Promise<void> {
    await em.query(`UPDATE billing_counter SET count = GREATEST(count - 1, 0), updated_at = now() WHERE subject = $1 AND window_key = $2`, [
      ref.subject,
      ref.window,
    ]);
  }

  async count(em: EntityManager, ref: CounterRef): Promise<number> {
    const rows: { count: number }[] = await em.query(`SELECT count FROM billing_counter WHERE subject = $1 AND window_key = $2`, [ref.subject, ref.window]);
    return rows[0]?.count ?? 0;
  }

  async insertAuthorization(em: EntityManager, a: AuthorizationEntity): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `INSERT INTO billing_authorization (request_id, user_id, key_id, channel, plan, counters, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (request_id) DO NOTHING RETURNING request_id`,
      [a.requestId, a.userId, a.keyId, a.channel, a.plan, JSON.stringify(a.counters), a.status, a.createdAt],
    );
    return rows.length === 1;
  }

  async findAuthorization(em: EntityManager, requestId: string, opts: { lock?: boolean } = {}): Promise<AuthorizationEntity | null> {
    const rows: AuthRow[] = await em.query(`SELECT * FROM billing_authorization WHERE request_id = $1${opts.lock ? ' FOR UPDATE' : ''}`, [requestId]);
    const r = rows[0];
    return r
      ? {
          requestId: r.request_id,
          userId: r.user_id,
          keyId: r.key_id,
          channel: r.channel,
          plan: r.plan,
          counters: r.counters,
          status: r.status,
          createdAt: new Date(r.created_at),
        }
      : null;
  }

  async updateAuthorization(em: EntityManager, requestId: string, counters: CounterRef[], status: 'allowed' | 'released'): Promise<void> {
    await em.query(`UPDATE billing_authorization SET counters = $2, status = $3 WHERE request_id = $1`, [requestId, JSON.stringify(counters), status]);
  }

  async rememberKey(em: EntityManager, keyId: string, userId: string | null, rateLimit: number | null, at: Date): Promise<void> {
    await em.query(
      `INSERT INTO billing_key_owner (key_id, user_id, rate_limit, seen_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key_id) DO UPDATE SET user_id = COALESCE(EXCLUDED.user_id, billing_key_owner.user_id), rate_limit = EXCLUDED.rate_limit, seen_at = EXCLUDED.seen_at
       WHERE billing_key_owner.user_id IS DISTINCT FROM COALESCE(EXCLUDED.user_id, billing_key_owner.user_id)
          OR billing_key_owner.rate_limit IS DISTINCT FROM EXCLUDED.rate_limit`,
      [keyId, userId, rateLimit, at],
    );
  }

  async findKey(em: EntityManager, keyId: string): Promise<{ userId: string | null; rateLimit: number | null } | null> {
    const rows: { user_id: string | null; rate_limit: number | null }[] = await em.query(
      `SELECT user_id, rate_limit FROM billing_key_owner WHERE key_id = $1`,
      [keyId],
    );
    return rows[0] ? { userId: rows[0].user_id, rateLimit: rows[0].rate_limit } : null;
  }
}

interface UsageRow {
  request_id: string;
  key_id: string | null;
  user_id: string | null;
  agent_id: string;
  words: number;
  input_tokens: number;
  output_tokens: number;
  engine: string;
  fallback_reason: string | null;
  latency_ms: number;
  occurred_at: Date;
}
interface TotalsRow {
  requests: number;
  words: string | number | null;
  input_tokens: string | number | null;
  output_tokens: string | number | null;
}
const totals = (r: TotalsRow | undefined): UsageTotals => ({
  requests: Number(r?.requests ?? 0),
  words: Number(r?.words ?? 0),
  inputTokens: Number(r?.input_tokens ?? 0),
  outputTokens: Number(r?.output_tokens ?? 0),
});
const SUMS = `count(*)::int AS requests, COALESCE(sum(words), 0)::bigint AS words, COALESCE(sum(input_tokens), 0)::bigint AS input_tokens, COALESCE(sum(output_tokens), 0)::bigint AS output_tokens`;

@Injectable()
export class PostgresUsageRepository implements UsageRepositoryPort {
  async insert(em: EntityManager, u: UsageEntity): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `INSERT INTO billing_usage (request_id, key_id, user_id, agent_id, words, input_tokens, output_tokens, engine, fallback_reason, latency_ms, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (request_id) DO NOTHING RETURNING request_id`,
      [u.requestId, u.keyId, u.userId, u.agentId, u.words, u.inputTokens, u.outputTokens, u.engine, u.fallbackReason, u.latencyMs, u.occurredAt],
    );
    return rows.length === 1;
  }

  async insertMany(em: EntityManager, rows: UsageEntity[]): Promise<number> {
    if (!rows.length) return 0;
    const json = rows.map((u) => ({
      request_id: u.requestId,
      key_id: u.keyId,
      user_id: u.userId,
      agent_id: u.agentId,
      words: u.words,
      input_tokens: u.inputTokens,
      output_tokens: u.outputTokens,
      engine: u.engine,
      fallback_reason: u.fallbackReason,
      latency_ms: u.latencyMs,
      occurred_at: u.occurredAt.toISOString(),
    }));
    const inserted: unknown[] = await em.query(
      `INSERT INTO billing_usage (request_id, key_id, user_id, agent_id, words, input_tokens, output_tokens, engine, fallback_reason, latency_ms, occurred_at)
       SELECT request_id, key_id, user_id, agent_id, words, input_tokens, output_tokens, engine, fallback_reason, latency_ms, occurred_at
       FROM jsonb_to_recordset($1::jsonb) AS x(request_id text, key_id text, user_id text, agent_id text, words int, input_tokens int, output_tokens int, engine text, fallback_reason text, latency_ms double precision, occurred_at timestamptz)
       ON CONFLICT (request_id) DO NOTHING RETURNING request_id`,
      [JSON.stringify(json)],
    );
    return inserted.length;
  }

  async recorded(em: EntityManager, requestId: string): Promise<boolean> {
    const rows: unknown[] = await em.query(`SELECT 1 FROM billing_usage WHERE request_id = $1`, [requestId]);
    return rows.length > 0;
  }

  async keyTotals(em: EntityManager, keyId: string): Promise<UsageTotals> {
    const rows: TotalsRow[] = await em.query(`SELECT ${SUMS} FROM billing_usage WHERE key_id = $1`, [keyId]);
    return totals(rows[0]);
  }

  async keyRequests(em: EntityManager, keyId: string, limit: number): Promise<UsageEntity[]> {
    const rows: UsageRow[] = await em.query(`SELECT * FROM billing_usage WHERE key_id = $1 ORDER BY occurred_at DESC, request_id LIMIT $2`, [keyId, limit]);
    return rows.map((r) => ({
      requestId: r.request_id,
      keyId: r.key_id,
      userId: r.user_id,
      agentId: r.agent_id,
      words: r.words,
      inputTokens: r.input_tokens,
      outputTokens: r.output_tokens,
      engine: r.engine,
      fallbackReason: r.fallback_reason,
      latencyMs: r.latency_ms,
      occurredAt: new Date(r.occurred_at),
    }));
  }

  async userTotals(em: EntityManager, userId: string, from?: Date, to?: Date): Promise<UsageTotals> {
    const rows: TotalsRow[] = await em.query(
      `SELECT ${SUMS} FROM billing_usage WHERE user_id = $1 AND ($2::timestamptz IS NULL OR occurred_at >= $2) AND ($3::timestamptz IS NULL OR occurred_at < $3)`,
      [userId, from ?? null, to ?? null],
    );
    return totals(rows[0]);
  }

  async userDaily(em: EntityManager, userId: string, from: Date, to: Date): Promise<DailyUsage[]> {
    const rows: (TotalsRow & { date: string })[] = await em.query(
      `SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, ${SUMS}
       FROM billing_usage WHERE user_id = $1 AND occurred_at >= $2 AND occurred_at < $3 GROUP BY 1 ORDER BY 1`,
      [userId, from, to],
    );
    return rows.map((r) => ({ date: r.date, ...totals(r) }));
  }
}
