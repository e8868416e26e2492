import { useTranslation } from 'react-i18next';
import type { UsageSummaryDto } from '@gaia/contracts';
import { formatNumber } from '../lib/format';

const money = (v: number, lang: string) => v.toLocaleString(lang, { style: 'currency', currency: 'USD' });
const day = (iso: string, lang: string) => new Date(iso).toLocaleDateString(lang, { timeZone: 'UTC', day: 'numeric', month: 'short' });

/**
 * The current billing month as the server bills it: words used of the included words, overage so far, amount
 * due, and how a plan change split the month (proration).
 */
export function BillingMonth({ summary }: { summary: UsageSummaryDto }) {
  const { t, i18n } = useTranslation(['plans', 'public']);
  const lang = i18n.language;
  const p = summary.period;
  const segments = p.segments ?? [];
  // The end is exclusive: show the last day of the month.
  const lastDay = new Date(new Date(p.end).getTime() - 1).toISOString();
  return (
    <section className="card" aria-labelledby="billing-month-heading" data-testid="billing-month">
      <h2 id="billing-month-heading" className="card__title">
        {t('month.title')}
      </h2>
      <p className="muted small">{t('month.range', { start: day(p.start, lang), end: day(lastDay, lang) })}</p>
      <dl className="limits-list">
        <div>
          <dt>{t('month.words')}</dt>
          <dd data-testid="billing-words">
            {p.included_words === null
              ? t('month.wordsFree', { used: formatNumber(p.words, lang) })
              : t('month.wordsOf', { used: formatNumber(p.words, lang), included: formatNumber(p.included_words, lang) })}
          </dd>
        </div>
        <div>
          <dt>{t('month.overage')}</dt>
          <dd data-testid="billing-overage">{t('month.overageValue', { words: formatNumber(p.overage_words, lang), cost: money(p.overage_cost, lang) })}</dd>
        </div>
        <div>
          <dt>{t('month.due')}</dt>
          <dd data-testid="billing-due">{money(p.amount_due, lang)}</dd>
        </div>
      </dl>
      {segments.length > 1 && (
        <p className="muted small" data-testid="billing-prorated">
          {t('month.prorated', {
            parts: segments.map((s) => t('month.part', { plan: t(`public:pricing.plans.${s.plan}.name`), share: Math.round(s.share * 100) })).join(' · '),
          })}
        </p>
      )}
    </section>
  );
}
