/** The clock billing windows are computed with (CLOCK by default; tests pass a ManualClock). */
export const BILLING_CLOCK = Symbol('BILLING_CLOCK');
/** Per-IP limits of the anonymous public translator (`PublicTranslatorLimits`, from APP_CONFIG by default). */
export const PUBLIC_TRANSLATOR_LIMITS = Symbol('PUBLIC_TRANSLATOR_LIMITS');
