import { useTranslation } from 'react-i18next';

/** Calibrated confidence (0..1, expected quality) as a discreet badge: its percentage, toned low / medium / high. */
export const CONFIDENCE_MEDIUM = 0.3;
export const CONFIDENCE_HIGH = 0.6;

export function ConfidenceBadge({ confidence }: { confidence: number }) {
  const { t, i18n } = useTranslation('public');
  const level = confidence >= CONFIDENCE_HIGH ? 'high' : confidence >= CONFIDENCE_MEDIUM ? 'medium' : 'low';
  const value = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(confidence);
  return (
    <span className={`confidence-score confidence-score--${level}`} data-testid="confidence-badge" title={t('translator.confidenceHint')}>
      {t('translator.confidence', { value })}
    </span>
  );
}
