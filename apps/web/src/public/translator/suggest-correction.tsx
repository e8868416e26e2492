import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addCorrection, FEEDBACK_LIMITS, feedbackKeys } from '../../api/feedback-api';
import { serverErrorText } from '../../i18n/server-error';
import type { TranslatorState } from './use-translator';

export interface SuggestCorrectionProps {
  agentId: string;
  /** The translator's state: the action appears once a translation is complete. */
  state: TranslatorState;
  /** Corrections are stored in the agent's direction; a swapped translator only says so. */
  reversed?: boolean;
  from: string;
  to: string;
}

/**
 * "Suggest a better translation" (owners and editors): stores the pair as the agent's own data; the very next
 * request for the same text answers it and similar texts use it as an example.
 */
export function SuggestCorrection({ agentId, state, reversed = false, from, to }: SuggestCorrectionProps) {
  const { t, i18n } = useTranslation('feedback');
  const id = useId();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [corrected, setCorrected] = useState('');
  const [savedFor, setSavedFor] = useState<string | null>(null);
  const [empty, setEmpty] = useState(false);
  const save = useMutation({
    mutationFn: () => addCorrection(agentId, { source: state.source, translation: state.output, corrected: corrected.trim() }),
    onSuccess: () => {
      setSavedFor(state.source);
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: feedbackKeys.corrections(agentId) });
    },
  });
  if (state.phase !== 'complete' || !state.source) return null;
  if (reversed) return <p className="muted small">{t('suggest.forwardOnly', { from, to })}</p>;
  const saved = savedFor === state.source && !open;
  const submit = () => {
    if (!corrected.trim()) {
      setEmpty(true);
      return;
    }
    setEmpty(false);
    save.mutate();
  };
  return (
    <div className="suggest-correction" data-testid="suggest-correction">
      {saved && (
        <p className="alert alert--success" role="status" data-testid="correction-saved">
          {t('suggest.saved')}
        </p>
      )}
      {!open ? (
        <button
          type="button"
          className="btn btn--outline btn--sm"
          onClick={() => {
            setCorrected(state.output);
            setOpen(true);
            save.reset();
          }}
          data-testid="suggest-open"
        >
          {t('suggest.open')}
        </button>
      ) : (
        <form
          className="suggest-correction__form"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label className="field-label" htmlFor={`${id}-corrected`}>
            {t('suggest.label')}
          </label>
          <textarea
            id={`${id}-corrected`}
            className="textarea textarea--short"
            value={corrected}
            onChange={(e) => setCorrected(e.target.value)}
            maxLength={FEEDBACK_LIMITS.corrected}
            data-testid="suggest-text"
          />
          {empty && (
            <p className="alert alert--error" role="alert">
              {t('suggest.empty')}
            </p>
          )}
          {save.isError && (
            <p className="alert alert--error" role="alert">
              {serverErrorText(save.error, t, i18n.language, t('suggest.failed'))}
            </p>
          )}
          <div className="suggest-correction__actions">
            <button type="submit" className="btn btn--primary btn--sm" disabled={save.isPending} data-testid="suggest-save">
              {save.isPending ? t('suggest.saving') : t('suggest.save')}
            </button>
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setOpen(false)} disabled={save.isPending}>
              {t('suggest.cancel')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
