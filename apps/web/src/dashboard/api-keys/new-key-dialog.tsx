import { useTranslation } from 'react-i18next';
import { CopyText } from '../components/copy';
import { Dialog } from '../components/dialog';

/** The new key, shown once; closes only on 'I've saved my key' (spec §4). */
export function NewKeyDialog({ name, apiKey, onDone }: { name: string; apiKey: string; onDone(): void }) {
  const { t } = useTranslation('dashboard');
  return (
    <Dialog title={t('api.newKeyTitle')} className="dash-modal--wide">
      <p className="dash-modal__text">{t('api.newKeyText', { name })}</p>
      <div className="key-reveal">
        <code data-testid="new-api-key">{apiKey}</code>
        <CopyText text={apiKey} />
      </div>
      <p className="alert alert--warning">{t('api.newKeyWarning')}</p>
      <div className="dash-modal__actions">
        <button type="button" className="btn btn--primary" onClick={onDone} data-autofocus>
          {t('api.savedKey')}
        </button>
      </div>
    </Dialog>
  );
}
