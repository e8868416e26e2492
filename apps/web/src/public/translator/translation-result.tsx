import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { wordedError } from '../../i18n/server-error';
import { formatResponseTime } from '../../lib/response-time';
import type { UntranslatedSpan } from '@gaia/contracts';
import type { TranslatorState } from './use-translator';
import { ConfidenceBadge } from './confidence-badge';
import { WhyPanel } from './why-panel';

/** Below this engine confidence (0..1) the result carries a "low confidence" badge. */
export const LOW_CONFIDENCE = 0.5;

/** The source text with its untranslated spans marked (spans out of range or overlapping are skipped). */
function MarkedSource({ source, spans }: { source: string; spans: UntranslatedSpan[] }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < at || s.end > source.length || s.end <= s.start) continue;
    if (s.start > at) parts.push(<span key={`t${at}`}>{source.slice(at, s.start)}</span>);
    parts.push(
      <mark key={`m${s.start}`} className="untranslated">
        {source.slice(s.start, s.end)}
      </mark>,
    );
    at = s.end;
  }
  if (at < source.length) parts.push(<span key={`t${at}`}>{source.slice(at)}</span>);
  return <>{parts}</>;
}

/** Result panel: status line, streamed text with a blinking cursor, completion note with response time. */
export function TranslationResult({ state, cursor = true }: { state: TranslatorState; cursor?: boolean }) {
  const { t, i18n } = useTranslation('public');
  const { phase, status, output, responseTime, error, confidence, untranslated, source } = state;
  const low = phase === 'complete' && confidence !== null && confidence < LOW_CONFIDENCE;
  const marked = phase === 'complete' && untranslated.length > 0 && !!source;
  const busy = phase === 'translating' || phase === 'streaming';
  return (
    <section className="result-panel" aria-labelledby="result-heading" aria-busy={busy}>
      <h2 id="result-heading" className="field-label">
        {t('translator.resultHeading')}
      </h2>
      <div className={`result-box result-box--${phase}`} data-testid="translation-output" aria-live="polite">
        {phase === 'idle' && <span className="muted">{t('translator.resultPlaceholder')}</span>}
        {phase === 'error' && (
          <span className="result-error">
            {t('translator.error', {
              message: wordedError({ message: error ?? '', code: state.errorCode ?? null }, t, i18n.language, t('translator.requestFailed')),
            })}
          </span>
        )}
        {phase !== 'idle' && phase !== 'error' && (
          <>
            <span className="result-text">{output}</span>
            {busy && cursor && <span className="cursor" aria-hidden="true" />}
          </>
        )}
      </div>
      <div className="result-meta" data-testid="translation-status">
        {busy && (
          <span className="status-line">
            <span className="spinner" aria-hidden="true" />
            {status || t('translator.translating')}
          </span>
        )}
        {phase === 'complete' && (
          <>
            <span className="status-complete">
              <span aria-hidden="true">✓ </span>
              <span>{t('translator.complete')}</span>
            </span>
            {responseTime !== null && (
              <span className="response-time">{t('translator.responseTime', { time: formatResponseTime(responseTime, i18n.language) })}</span>
            )}
            {confidence !== null && <ConfidenceBadge confidence={confidence} engine={state.engine} />}
            {low && (
              <span className="confidence-badge" data-testid="low-confidence" title={t('translator.lowConfidenceHint')}>
                {t('translator.lowConfidence')}
              </span>
            )}
          </>
        )}
      </div>
      {phase === 'complete' && state.appliedTerms.length > 0 && (
        <p className="applied-terms muted" data-testid="applied-terms" title={t('translator.appliedTermsHint')}>
          {t('translator.appliedTerms', { terms: state.appliedTerms.map((a) => `${a.term} → ${a.translation}`).join(', ') })}
        </p>
      )}
      {phase === 'complete' && state.explanation && <WhyPanel explanation={state.explanation} />}
      {marked && (
        <p className="untranslated-note" data-testid="untranslated">
          <span className="muted">{t('translator.untranslated')} </span>
          <MarkedSource source={source} spans={untranslated} />
        </p>
      )}
    </section>
  );
}
