import { z } from 'zod';
import { defineRpc, type RpcRegistry } from './define';
import { USAGE_BATCH_MAX_RECORDS, usageRecordedSchema } from '../events/translation.events';

/** Plans of spec §9. Prices in US dollars. */
export const planIdSchema = z.enum(['free', 'starter', 'enterprise']);
export type PlanId = z.infer<typeof planIdSchema>;

export const planDtoSchema = z.object({
  id: planIdSchema,
  /** 'Free' | 'Starter' | 'Enterprise'. */
  name: z.string(),
  price: z.number(),
  period: z.literal('month'),
  /** API calls per UTC day (Free: 10), null = no daily call limit. */
  daily_api_calls: z.number().int().nullable(),
  /** Words per billing month included (null = none, Free). */
  included_words: z.number().int().nullable(),
  /** Dollars per additional 1,000 words (null = no overage, Free). */
  overage_per_1000_words: z.number().nullable(),
});
export type PlanDto = z.infer<typeof planDtoSchema>;

/** Default per-key rate limit (requests per UTC day), spec §9. */
export const DEFAULT_KEY_RATE_LIMIT = 1000;

/** KeyUsageDto of docs/api-surface.md. Costs: $3 per million input tokens + $15 per million output tokens. */
export const keyUsageDtoSchema = z.object({
  total_requests: z.number().int(),
  rate_limit: z.number().int(),
  /** Requests of this key today (UTC), counted against rate_limit. */
  requests_today: z.number().int(),
  input_cost: z.number(),
  output_cost: z.number(),
  total_cost: z.number(),
  average_tokens_per_request: z.number(),
  /** Newest first (at most `limit`). */
  requests: z.array(z.object({ input_tokens: z.number().int(), output_tokens: z.number().int(), words: z.number().int(), created_at: z.string() })),
});
export type KeyUsageDto = z.infer<typeof keyUsageDtoSchema>;

/** The current billing month (calendar month, UTC) of a user. */
export const billingPeriodSchema = z.object({
  start: z.string(),
  end: z.string(),
  words: z.number().int(),
  included_words: z.number().int().nullable(),
  overage_words: z.number().int(),
  overage_cost: z.number(),
  plan_price: z.number(),
  /** plan_price + overage_cost. */
  amount_due: z.number(),
  /** API calls today (UTC) and the plan's daily limit (null = none). */
  api_calls_today: z.number().int(),
  daily_api_calls: z.number().int().nullable(),
  /**
   * The month split at plan changes (proration): each part bills its plan's price and included words in
   * proportion to its share of the month, and its words beyond that at its plan's rate.
   */
  segments: z
    .array(
      z.object({
        plan: planIdSchema,
        start: z.string(),
        end: z.string(),
        share: z.number(),
        words: z.number().int(),
        included_words: z.number().int().nullable(),
        overage_words: z.number().int(),
        overage_cost: z.number(),
        plan_price: z.number(),
      }),
    )
    .optional(),
});

/** UsageSummaryDto of docs/api-surface.md (+ `period`). `total_cost` is the token cost estimate (all time). */
export const usageSummaryDtoSchema = z.object({
  total_requests: z.number().int(),
  total_words: z.number().int(),
  total_cost: z.number(),
  /** Plan name ('Free' | 'Starter' | 'Enterprise'). */
  plan: z.string(),
  /** One entry per UTC day, oldest first, the last `days` days including today (zeros included). */
  series: z.array(z.object({ date: z.string(), requests: z.number().int(), words: z.number().int(), cost: z.number() })),
  period: billingPeriodSchema,
});
export type UsageSummaryDto = z.infer<typeof usageSummaryDtoSchema>;

export const authorizeRequestSchema = z.object({
  /** The translate request's id (same as translation.translate.v1 requestId): a retry with the same id is not counted twice. */
  requestId: z.string().min(1).max(200),
  /** API key making the call (null for session calls). */
  keyId: z.string().min(1).nullable(),
  /** The key's owner or the session user (whose plan applies); null when unknown. */
  userId: z.string().min(1).nullable(),
  /**
   * Every path is metered: 'api' (a user's key: plan + key limits), 'web' (session: dashboard test translator,
   * Socket.IO; the same plan counter as the API, so the Free plan's 10 a day cover both), 'public' (the public
   * translator key: per client IP, per minute and per day).
   */
  channel: z.enum(['api', 'web', 'public']).default('api'),
  /** Client IP (required for 'public'). */
  ip: z.string().min(1).max(100).nullable().optional(),
  /** Per-key daily limit; omitted = 1,000 (default); null = no per-key limit (e.g. the public translator key). */
  keyRateLimit: z.number().int().positive().nullable().optional(),
  /** Words of the submitted source text (informational: paid plans bill them from usage.recorded.v1). */
  words: z.number().int().nonnegative().default(0),
});
export type AuthorizeRequest = z.input<typeof authorizeRequestSchema>;

/** A request for a paid plan (Pricing's Get Started): the operator sees it (`gaia plans requests`) and grants it (`gaia plan set`). */
export const planRequestDtoSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  plan: planIdSchema,
  status: z.enum(['pending', 'granted']),
  requested_at: z.string(),
  granted_at: z.string().nullable(),
});
export type PlanRequestDto = z.infer<typeof planRequestDtoSchema>;

/** Calls served by the billing service. Add entries; never rename or remove one (add a v2 instead). */
export const billingRpc = {
  'billing.authorize.v1': defineRpc({
    service: 'billing',
    description:
      'The metering of every translation path: checks and consumes the quota of one translation before it runs, atomically in Postgres (safe across gateway replicas): ' +
      'the per-key daily rate limit, the plan of a signed-in caller or key owner (Free: 10 calls per UTC day, API and session together) and, for the public translator, per-IP limits. ' +
      'Answers allowed, or fails with 429 (code `plan_limit_reached` or `rate_limited`, details.retryAfterSeconds = seconds to the window end). Idempotent on requestId.',
    request: authorizeRequestSchema,
    response: z.object({
      allowed: z.literal(true),
      plan: planIdSchema,
      /** Remaining API calls today on the plan (null = no daily plan limit). */
      remaining_today: z.number().int().nullable(),
      /** Remaining requests today for the key (null = no key or no key limit). */
      key_remaining_today: z.number().int().nullable(),
      /** Seconds until the daily counters reset (next UTC midnight). */
      reset_in_seconds: z.number().int(),
      /** True when this requestId had already been authorized (nothing consumed again). */
      duplicate: z.boolean(),
    }),
  }),
  'billing.record-usage.v1': defineRpc({
    service: 'billing',
    description:
      "Stores completed translations' usage at once (the translation service's group commit: one statement per batch; answers after the commit). " +
      'Each record exactly once per requestId, like usage.recorded.v1, which the caller emits instead when this call fails.',
    request: z.object({ records: z.array(usageRecordedSchema).min(1).max(USAGE_BATCH_MAX_RECORDS) }),
    response: z.object({ recorded: z.number().int().nonnegative() }),
  }),
  'billing.release.v1': defineRpc({
    service: 'billing',
    description:
      'Gives back the quota consumed by billing.authorize.v1 for a translation that failed (refused, engine error, database outage); a request whose usage was recorded keeps it. Idempotent.',
    request: z.object({ requestId: z.string().min(1).max(200) }),
    response: z.object({ released: z.boolean() }),
  }),
  'billing.key-usage.v1': defineRpc({
    service: 'billing',
    description: 'Usage of one API key (GET /api/api-keys/usage). The caller checks the key belongs to the user.',
    request: z.object({ keyId: z.string().min(1), limit: z.number().int().min(1).max(1000).default(100) }),
    response: keyUsageDtoSchema,
  }),
  'billing.usage-summary.v1': defineRpc({
    service: 'billing',
    description: "A user's totals, daily series (dashboard chart) and current billing month (GET /api/usage/summary).",
    request: z.object({ userId: z.string().min(1), days: z.number().int().min(1).max(366).default(30) }),
    response: usageSummaryDtoSchema,
  }),
  'billing.get-plan.v1': defineRpc({
    service: 'billing',
    description: "A user's plan (Free when never set).",
    request: z.object({ userId: z.string().min(1) }),
    response: planDtoSchema,
  }),
  'billing.set-plan.v1': defineRpc({
    service: 'billing',
    description: "Changes a user's plan with immediate effect. Emits billing.plan-changed.v1.",
    request: z.object({ userId: z.string().min(1), plan: planIdSchema }),
    response: planDtoSchema,
  }),
  'billing.request-plan.v1': defineRpc({
    service: 'billing',
    description:
      "Pricing's Get Started for a signed-in user: Free applies at once (status active); Starter and Enterprise record a pending request (status requested; asking again answers the same request) that the operator grants with set-plan.",
    request: z.object({ userId: z.string().min(1).max(200), plan: planIdSchema }),
    response: z.object({ status: z.enum(['active', 'requested']), plan: planDtoSchema, request: planRequestDtoSchema.nullable() }),
  }),
  'billing.list-plan-requests.v1': defineRpc({
    service: 'billing',
    description: 'Plan requests, oldest first (operator): pending only, or all.',
    request: z.object({ status: z.enum(['pending', 'all']).default('pending'), limit: z.number().int().min(1).max(1000).default(500) }),
    response: z.object({ requests: z.array(planRequestDtoSchema) }),
  }),
} satisfies RpcRegistry;
