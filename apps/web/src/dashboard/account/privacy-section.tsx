import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ACCOUNT_EXPORT_PATH, deleteAccount } from '../../api/privacy-api';
import { useAuth } from '../../auth/auth-context';

/** The Privacy page's promises on the Account tab: export everything, delete everything (email typed to confirm). */
export function PrivacySection({ email }: { email: string }) {
  const { t } = useTranslation('privacy');
  const { refresh } = useAuth();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const matches = confirm.trim().toLowerCase() === email.toLowerCase();

  const onDelete = async (e: FormEvent) => {
    e.preventDefault();
    if (!matches) return;
    setBusy(true);
    setError(null);
    try {
      await deleteAccount(confirm.trim());
      await refresh();
      navigate('/');
    } catch (err) {
      setError(t('failed', { message: (err as Error).message }));
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="privacy-heading" data-testid="privacy-section">
      <h2 id="privacy-heading" className="card__title">
        {t('title')}
      </h2>
      <p className="muted">{t('exportIntro')}</p>
      <a className="btn btn--outline" href={ACCOUNT_EXPORT_PATH} download>
        {t('export')}
      </a>
      <form onSubmit={(e) => void onDelete(e)}>
        <p className="muted">{t('deleteIntro')}</p>
        <label htmlFor="privacy-confirm">{t('confirmLabel')}</label>
        <input id="privacy-confirm" className="input" type="email" autoComplete="off" maxLength={320} value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        <button type="submit" className="btn btn--danger" disabled={!matches || busy} aria-busy={busy}>
          {busy ? t('deleting') : t('delete')}
        </button>
        {error && <p role="alert">{error}</p>}
      </form>
    </section>
  );
}
