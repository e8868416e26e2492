import { useTranslation } from 'react-i18next';
import { wordedError } from '../../i18n/server-error';
import { formatResponseTime } from '../../lib/response-time';
import type { TranslatorState } from './use-translator';

/** Result panel: status line, streamed text with a blinking cursor, completion note with response time. */
export function TranslationResult({ state, cursor = true }: { state: TranslatorState; cursor?: boolean }) {
  const { t, i18n } = useTranslation('public');
  const { phase, status, output, responseTime, error } = state;
  const busy = phase === 'translating' || phase === 'streaming';
  return (
    <section className="result-panel" aria-labelledby="result-heading" aria-busy={busy}>
      <h2 id="result-heading" className="field-label">
        {t('translator.resultHeading')}
      </h2>
      <div className={`result-box result-box--${phase}`} data-testid="translation-output" aria-live="polite">
        {phase === 'idle' && <span className="muted">{t('translator.resultPlaceholder')}</span>}
        {phase === 'error' && <span className="result-error">{t('translator.error', { message: wordedError({ message: error ?? '', code: state.errorCode ?? null }, t, i18n.language, t('translator.requestFailed')) })}</span>}
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
            {responseTime !== null && <span className="response-time">{t('translator.responseTime', { time: formatResponseTime(responseTime, i18n.language) })}</span>}
          </>
        )}
      </div>
    </section>
  );
}
