import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ACCOUNT_EXPORT_PATH, deleteAccount } from '../../api/privacy-api';
import { useAuth } from '../../auth/auth-context';
import { serverErrorText } from '../../i18n/server-error';

/** The Privacy page's promises on the Account tab: export everything, delete everything (email typed to confirm). */
export function PrivacySection({ email }: { email: string }) {
  const { t, i18n } = useTranslation('privacy');
  const queryClient = useQueryClient();
  const { refresh } = useAuth();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState('');
  const deletion = useMutation({
    mutationFn: (confirmation: string) => deleteAccount(confirmation),
    onSuccess: async () => {
      // Nothing of the deleted account stays cached.
      queryClient.clear();
      await refresh();
      navigate('/');
    },
  });
  const matches = confirm.trim().toLowerCase() === email.toLowerCase();
  // Busy until the page has moved on (a success navigates away).
  const busy = deletion.isPending || deletion.isSuccess;
  const error = deletion.isError ? t('failed', { message: serverErrorText(deletion.error, t, i18n.language) }) : null;

  const onDelete = (e: FormEvent) => {
    e.preventDefault();
    if (matches) deletion.mutate(confirm.trim());
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
      <form onSubmit={onDelete}>
        <p className="muted">{t('deleteIntro')}</p>
        <label htmlFor="privacy-confirm">{t('confirmLabel')}</label>
        <input
          id="privacy-confirm"
          className="input"
          type="email"
          autoComplete="off"
          maxLength={320}
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <button type="submit" className="btn btn--danger" disabled={!matches || busy} aria-busy={busy}>
          {busy ? t('deleting') : t('delete')}
        </button>
        {error && <p role="alert">{error}</p>}
      </form>
    </section>
  );
}
