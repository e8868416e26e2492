import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COPY_CONFIRMATION_MS } from '../config';

export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/** Copy button showing 'Copied!' for 2 seconds. */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useTranslation('common');
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await copyText(text);
    } catch (err) {
      console.warn('Copy failed', err);
      return;
    }
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
  };
  return (
    <button type="button" className="btn btn--ghost btn--sm copy-button" onClick={copy} aria-live="polite">
      {copied ? t('copied') : (label ?? t('copy'))}
    </button>
  );
}
