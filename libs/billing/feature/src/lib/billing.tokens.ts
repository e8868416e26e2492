/** The clock billing windows are computed with (CLOCK by default; tests pass a ManualClock). */
export const BILLING_CLOCK = Symbol('BILLING_CLOCK');
