/** Below this many milliseconds a response time is shown with one decimal ("6.4 ms"); above, whole milliseconds. */
const FRACTIONAL_MS_BELOW = 10;
const MS_PER_SECOND = 1000;
/** From this many seconds on, one decimal is enough ("12.3 s"); below, two ("1.42 s"). */
const ONE_DECIMAL_SECONDS_FROM = 10;

/**
 * The one formatter of a response time (given in seconds, as the API sends it), with a precision that means
 * something at its magnitude: "0.4 ms", "6 ms", "42 ms", "1.42 s", "12.3 s". Numbers in the UI language.
 */
export function formatResponseTime(seconds: number, lang: string): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  const ms = seconds * MS_PER_SECOND;
  if (ms < MS_PER_SECOND) {
    const digits = ms < FRACTIONAL_MS_BELOW ? 1 : 0;
    return `${new Intl.NumberFormat(lang, { maximumFractionDigits: digits }).format(ms)} ms`;
  }
  const digits = seconds < ONE_DECIMAL_SECONDS_FROM ? 2 : 1;
  return `${new Intl.NumberFormat(lang, { maximumFractionDigits: digits }).format(seconds)} s`;
}
