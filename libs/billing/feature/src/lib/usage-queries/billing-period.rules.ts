import type { PlanDto, PlanId } from '@gaia/contracts';
import { cents, MICROS } from '../billing.rules';

/**
 * Billing-month rules of spec §9 (FAQ): words are counted on the submitted source text; each plan includes
 * words per month and charges overage at its own rate per 1,000 words; the count resets each billing month
 * (calendar month, UTC) and unused words do not roll over; a plan change applies at once and is prorated.
 *
 * Proration: the month is split at every plan change into segments. Each segment bills its plan's price and
 * included words in proportion to its share of the month, and the words used during it beyond that prorated
 * allowance at its plan's overage rate. A plan without included words (Free) bills no words: its limit is
 * daily API calls. Amounts are exact micro-dollars until the final rounding to cents.
 */

/** Overage rates are quoted per this many words. */
const WORDS_PER_RATE_UNIT = 1_000;

export interface PlanChange {
  plan: PlanId;
  previousPlan: PlanId;
  at: Date;
}

export interface PlanSegment {
  plan: PlanId;
  start: Date;
  end: Date;
}

/**
 * The plans in effect over the billing month [start, end): the plan at the start is the previous plan of the
 * first change inside the month (or the current plan when none), then one segment per change.
 */
export function planSegments(month: { start: Date; end: Date }, currentPlan: PlanId, changes: PlanChange[]): PlanSegment[] {
  const inMonth = changes.filter((c) => c.at >= month.start && c.at < month.end).sort((a, b) => a.at.getTime() - b.at.getTime());
  const segments: PlanSegment[] = [];
  let plan = inMonth[0]?.previousPlan ?? currentPlan;
  let start = month.start;
  for (const c of inMonth) {
    if (c.at > start) segments.push({ plan, start, end: c.at });
    plan = c.plan;
    start = c.at;
  }
  segments.push({ plan, start, end: month.end });
  return segments;
}

export interface SegmentCharge {
  plan: PlanId;
  start: Date;
  end: Date;
  /** Share of the billing month, 0..1. */
  share: number;
  words: number;
  /** Prorated included words (null: the plan includes none and bills no words). */
  included_words: number | null;
  overage_words: number;
  overage_micros: number;
  price_micros: number;
}

export interface PeriodStatement {
  words: number;
  /** Sum of the prorated allowances (null when no segment's plan includes words). */
  included_words: number | null;
  overage_words: number;
  /** Dollars (cents). */
  overage_cost: number;
  /** Prorated plan prices, dollars (cents). */
  plan_price: number;
  amount_due: number;
  segments: SegmentCharge[];
}

/** One segment's charge: prorated price and allowance, overage at the plan's rate (exact micro-dollars). */
export function segmentCharge(plan: PlanDto, segment: PlanSegment, month: { start: Date; end: Date }, words: number): SegmentCharge {
  const share = (segment.end.getTime() - segment.start.getTime()) / (month.end.getTime() - month.start.getTime());
  const included = plan.included_words === null ? null : Math.floor(plan.included_words * share);
  const overageWords = included === null || plan.overage_per_1000_words === null ? 0 : Math.max(0, words - included);
  // $X per 1,000 words = X * 1,000 micro-dollars per word.
  const microsPerWord = Math.round(((plan.overage_per_1000_words ?? 0) * MICROS) / WORDS_PER_RATE_UNIT);
  return {
    plan: plan.id,
    start: segment.start,
    end: segment.end,
    share,
    words,
    included_words: included,
    overage_words: overageWords,
    overage_micros: overageWords * microsPerWord,
    price_micros: Math.round(plan.price * MICROS * share),
  };
}

/** The month's statement from its segments and the words used in each (same order). */
export function periodStatement(
  plans: Record<PlanId, PlanDto>,
  month: { start: Date; end: Date },
  segments: PlanSegment[],
  wordsPerSegment: number[],
): PeriodStatement {
  const charges = segments.map((s, i) => segmentCharge(plans[s.plan], s, month, wordsPerSegment[i] ?? 0));
  const withWords = charges.filter((c) => c.included_words !== null);
  const overageMicros = charges.reduce((n, c) => n + c.overage_micros, 0);
  const priceMicros = charges.reduce((n, c) => n + c.price_micros, 0);
  return {
    words: charges.reduce((n, c) => n + c.words, 0),
    included_words: withWords.length ? withWords.reduce((n, c) => n + (c.included_words ?? 0), 0) : null,
    overage_words: charges.reduce((n, c) => n + c.overage_words, 0),
    overage_cost: cents(overageMicros),
    plan_price: cents(priceMicros),
    amount_due: cents(priceMicros + overageMicros),
    segments: charges,
  };
}
