import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export function DemoModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('public');
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="demo-title">
        <h2 id="demo-title">{t('landing.demo.title')}</h2>
        <p>{t('landing.demo.text')}</p>
        <button ref={close} type="button" className="btn btn--primary" onClick={onClose}>
          {t('close', { ns: 'common' })}
        </button>
      </div>
    </div>
  );
}
