import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * Account deletion on the billing side (on the caller's transaction): the account's usage is folded into
 * anonymous monthly totals per engine, then every row naming the account or its keys is removed.
 */
@Injectable()
export class BillingErasureRepository {
  async erase(em: EntityManager, userId: string, keyIds: string[]): Promise<void> {
    const owned = `(user_id = $1 OR key_id = ANY($2::text[]))`;
    await em.query(
      `INSERT INTO billing_anonymous_usage (month, engine, requests, words, input_tokens, output_tokens)
       SELECT date_trunc('month', occurred_at AT TIME ZONE 'UTC')::date, engine, count(*), sum(words), sum(input_tokens), sum(output_tokens)
         FROM billing_usage WHERE ${owned} GROUP BY 1, 2
       ON CONFLICT (month, engine) DO UPDATE SET requests = billing_anonymous_usage.requests + EXCLUDED.requests,
         words = billing_anonymous_usage.words + EXCLUDED.words, input_tokens = billing_anonymous_usage.input_tokens + EXCLUDED.input_tokens,
         output_tokens = billing_anonymous_usage.output_tokens + EXCLUDED.output_tokens`,
      [userId, keyIds],
    );
    await em.query(`DELETE FROM billing_usage WHERE ${owned}`, [userId, keyIds]);
    await em.query(`DELETE FROM billing_authorization WHERE ${owned}`, [userId, keyIds]);
    await em.query(`DELETE FROM billing_key_owner WHERE ${owned}`, [userId, keyIds]);
    await em.query(`DELETE FROM billing_counter WHERE subject LIKE ANY($1::text[])`, [[`user:${userId}:%`, ...keyIds.map((k) => `key:${k}:%`)]]);
    for (const t of ['billing_plan', 'billing_plan_change', 'billing_plan_request']) await em.query(`DELETE FROM ${t} WHERE user_id = $1`, [userId]);
  }

  /** Totals kept for deleted accounts (all months). */
  async anonymousTotals(em: EntityManager): Promise<{ requests: number; words: number }> {
    const rows: { requests: string | null; words: string | null }[] = await em.query(
      `SELECT sum(requests) AS requests, sum(words) AS words FROM billing_anonymous_usage`,
    );
    return { requests: Number(rows[0]?.requests ?? 0), words: Number(rows[0]?.words ?? 0) };
  }
}
