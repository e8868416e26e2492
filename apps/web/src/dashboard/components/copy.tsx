import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Copy button; shows 'Copied!' for 2 s (spec §9). */
export function CopyText({ text, label }: { text: string; label?: string }) {
  const { t } = useTranslation('dashboard');
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch (err) {
      console.warn('Clipboard unavailable', err);
      return;
    }
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), 2000);
  };
  return (
    <button type="button" className="btn btn--outline btn--sm" onClick={copy} aria-live="polite">
      {copied ? t('copied') : (label ?? t('copy'))}
    </button>
  );
}

export function CodeBlock({ code, title, testId }: { code: string; title: string; testId?: string }) {
  return (
    <div className="code-sample">
      <div className="code-sample__bar">
        <span>{title}</span>
        <CopyText text={code} />
      </div>
      <pre className="code-block" data-testid={testId} tabIndex={0}>
        <code>{code}</code>
      </pre>
    </div>
  );
}
