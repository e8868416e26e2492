import { useTranslation } from 'react-i18next';
import { MAX_CHARS, MAX_WORDS } from '../../config';
import { countWords, limitWords } from './word-limit';

interface Props {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  onClear?: () => void;
  disabled?: boolean;
}

/** Source textarea that refuses words beyond the limit, with its 'n/50 words' counter. */
export function SourceBox({ id, label, value, onChange, onClear, disabled }: Props) {
  const { t } = useTranslation('public');
  const words = countWords(value);
  return (
    <div className="source-box">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <textarea
        id={id}
        className="textarea"
        rows={6}
        maxLength={MAX_CHARS}
        value={value}
        placeholder={t('translator.placeholder')}
        disabled={disabled}
        aria-describedby={`${id}-count`}
        onChange={(e) => onChange(limitWords(e.target.value))}
      />
      <div className="source-box__footer">
        <span id={`${id}-count`} className={`word-count${words >= MAX_WORDS ? ' word-count--max' : ''}`} aria-live="polite">
          {t('translator.wordCount', { count: words, max: MAX_WORDS })}
        </span>
        {onClear && (
          <button type="button" className="btn btn--ghost btn--sm" onClick={onClear} disabled={!value}>
            {t('translator.clear')}
          </button>
        )}
      </div>
    </div>
  );
}
