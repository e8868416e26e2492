import { useTranslation } from 'react-i18next';

/** Calibrated confidence (0..1, expected quality) as a discreet badge: its percentage, toned low / medium / high. */
export const CONFIDENCE_MEDIUM = 0.3;
export const CONFIDENCE_HIGH = 0.6;

/** `llm`: the LLM engine's own agreement score, not calibrated (worded so in the hint). */
export function ConfidenceBadge({ confidence, engine = null }: { confidence: number; engine?: string | null }) {
  const { t, i18n } = useTranslation('public');
  const level = confidence >= CONFIDENCE_HIGH ? 'high' : confidence >= CONFIDENCE_MEDIUM ? 'medium' : 'low';
  const value = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(confidence);
  return (
    <span
      className={`confidence-score confidence-score--${level}`}
      data-testid="confidence-badge"
      title={t(engine === 'llm' ? 'translator.confidenceHintLlm' : 'translator.confidenceHint')}
    >
      {t('translator.confidence', { value })}
    </span>
  );
}
