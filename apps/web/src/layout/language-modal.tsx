import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from './logo';
import { languageFromSetting, readStoredSetting, storeSetting, type LanguageSetting } from '../i18n/language';

/** First-visit language picker: shown while no preferredLanguage is stored. */
export function LanguageModal() {
  const { t, i18n } = useTranslation('common');
  const [open, setOpen] = useState(() => readStoredSetting() === null);
  const firstButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (open) firstButton.current?.focus();
  }, [open]);

  if (!open) return null;

  const choose = (setting: LanguageSetting) => {
    storeSetting(setting);
    void i18n.changeLanguage(languageFromSetting(setting));
    setOpen(false);
  };

  return (
    <div className="modal-backdrop">
      <div className="modal language-modal" role="dialog" aria-modal="true" aria-labelledby="language-modal-title" aria-describedby="language-modal-subtitle">
        <div className="language-modal__globe">
          <Logo size={48} />
        </div>
        <h2 id="language-modal-title" lang="en">
          Select Your Language
        </h2>
        <p id="language-modal-subtitle" className="muted" lang="es">
          Selecciona tu idioma
        </p>
        <div className="language-modal__choices">
          <button ref={firstButton} type="button" className="btn btn--primary btn--lg" lang="en" onClick={() => choose('gaia-en')}>
            {t('languageModal.english')}
          </button>
          <button type="button" className="btn btn--secondary btn--lg" lang="es" onClick={() => choose('gaia-es')}>
            {t('languageModal.spanish')}
          </button>
        </div>
      </div>
    </div>
  );
}
