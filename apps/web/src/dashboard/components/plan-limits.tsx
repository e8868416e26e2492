import { useTranslation } from 'react-i18next';
import type { KeyUsageDto, UsageSummaryDto } from '@gaia/contracts';
import { formatNumber } from '../lib/format';
import { keyLimitBinds, usedShare } from '../lib/limits';
import { formatCost } from '../lib/rules';
import { ProgressBar } from './dialog';

/** The plan's name in the UI language ('Free' → 'Gratis'); unknown names as they are. */
export function usePlanLabel(): (plan: string) => string {
  const { t } = useTranslation('dashboard');
  return (plan) => t(`limits.plans.${plan}`, { defaultValue: plan });
}

/**
 * What binds, shown one way (`words={false}` where the billing month card already shows the words) (from the server's numbers): calls used today of the plan's allowance (Free), words
 * used this month of the included words and the overage (Starter, Enterprise), and the key's own daily limit only
 * where it is the tighter one.
 */
export function PlanLimits({
  summary,
  keyUsage = null,
  keyName,
  words = true,
}: {
  summary: UsageSummaryDto;
  keyUsage?: KeyUsageDto | null;
  keyName?: string;
  words?: boolean;
}) {
  const { t, i18n } = useTranslation('dashboard');
  const planLabel = usePlanLabel();
  const { period } = summary;
  const n = (v: number) => formatNumber(v, i18n.language);
  const showKey = keyUsage !== null && keyLimitBinds(period, keyUsage);
  const showWords = words && period.included_words !== null;
  if (period.daily_api_calls === null && !showWords && !showKey) return null;
  return (
    <section className="card" aria-labelledby="limits-heading" data-testid="plan-limits">
      <h2 id="limits-heading" className="card__title">
        {t('limits.title', { plan: planLabel(summary.plan) })}
      </h2>
      <dl className="limits-list">
        {period.daily_api_calls !== null && (
          <div data-testid="limit-calls">
            <dt>{t('limits.callsToday')}</dt>
            <dd>
              {t('limits.usedOf', { used: n(period.api_calls_today), limit: n(period.daily_api_calls) })}
              <ProgressBar value={usedShare(period.api_calls_today, period.daily_api_calls) * 100} label={t('limits.callsToday')} />
              <span className="muted small">{t('limits.resetsDaily')}</span>
            </dd>
          </div>
        )}
        {showWords && period.included_words !== null && (
          <div data-testid="limit-words">
            <dt>{t('limits.wordsThisMonth')}</dt>
            <dd>
              {t('limits.wordsUsedOf', { used: n(period.words), limit: n(period.included_words) })}
              <ProgressBar value={usedShare(period.words, period.included_words) * 100} label={t('limits.wordsThisMonth')} />
              <span className="muted small" data-testid="limit-overage">
                {t('limits.overage', { words: n(period.overage_words), cost: formatCost(period.overage_cost) })}
              </span>
            </dd>
          </div>
        )}
        {showKey && keyUsage && (
          <div data-testid="limit-key">
            <dt>{t('limits.keyToday', { name: keyName ?? '' })}</dt>
            <dd>
              {t('limits.usedOf', { used: n(keyUsage.requests_today), limit: n(keyUsage.rate_limit) })}
              <ProgressBar value={usedShare(keyUsage.requests_today, keyUsage.rate_limit) * 100} label={t('limits.keyToday', { name: keyName ?? '' })} />
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}
