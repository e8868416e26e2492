import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { updateAccount } from '../../api/account-api';
import { accountQuery, queryKeys } from '../../api/queries';
import { useAuth } from '../../auth/auth-context';
import { usePlanLabel } from '../components/plan-limits';
import { formatDateTime } from '../lib/format';
import { SAVED_MESSAGE_MS } from '../lib/rules';
import { useTimedMessage } from '../lib/use-timed-message';
import { PrivacySection } from './privacy-section';

type Editable = 'fullName' | 'displayName';

/** One profile field: view → edit → save | cancel (cancel restores the original value). */
export function ProfileField({
  field,
  label,
  value,
  onSave,
}: {
  field: Editable;
  label: string;
  value: string;
  onSave(field: Editable, value: string): Promise<void>;
}) {
  const { t } = useTranslation('dashboard');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!editing) setDraft(value);
  }, [value, editing]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await onSave(field, draft.trim());
      setEditing(false);
    } catch {
      /* the tab shows the error; stay in edit mode */
    } finally {
      setBusy(false);
    }
  };
  const cancel = () => {
    setDraft(value);
    setEditing(false);
  };
  const inputId = `profile-${field}`;
  return (
    <div className="profile-field" data-testid={`profile-${field}`}>
      {editing ? (
        <form className="profile-field__form" onSubmit={save}>
          <label htmlFor={inputId} className="profile-field__label">
            {label}
          </label>
          <input id={inputId} className="input" value={draft} onChange={(e) => setDraft(e.target.value)} autoFocus maxLength={120} />
          <div className="profile-field__actions">
            <button type="submit" className="btn btn--primary btn--sm" disabled={busy}>
              {t('account.save')}
            </button>
            <button type="button" className="btn btn--ghost btn--sm" onClick={cancel} disabled={busy}>
              {t('cancel')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <span className="profile-field__label">{label}</span>
          <span className="profile-field__value">{value || <span className="muted">{t('account.notSet')}</span>}</span>
          <button type="button" className="btn btn--outline btn--sm" onClick={() => setEditing(true)} aria-label={`${t('account.edit')} ${label}`}>
            {t('account.edit')}
          </button>
        </>
      )}
    </div>
  );
}

/** Account tab: profile editing and account info (spec §2, §4). */
export function AccountTab() {
  const { t, i18n } = useTranslation('dashboard');
  const planLabel = usePlanLabel();
  const { user, refresh } = useAuth();
  const queryClient = useQueryClient();
  // The session's user shows at once; GET /api/account brings the fresh record.
  const { data: account = user } = useQuery(accountQuery());
  const [saved, setSaved] = useTimedMessage<string>(SAVED_MESSAGE_MS);

  const update = useMutation({
    mutationFn: (change: { field: Editable; value: string }) => updateAccount({ [change.field]: change.value }),
    onSuccess: (next) => {
      queryClient.setQueryData(queryKeys.account, next);
      setSaved(t('account.saved'));
      void refresh();
    },
    onError: (err) => console.error('Failed to save changes', err),
  });
  const error = update.isError ? t('account.saveFailed') : null;
  const save = async (field: Editable, value: string) => {
    await update.mutateAsync({ field, value });
  };

  if (!account) {
    return (
      <p className="muted" role="status">
        {t('loading')}
      </p>
    );
  }
  return (
    <div className="dash-page">
      <header className="dash-page__header">
        <h1 tabIndex={-1}>{t('account.title')}</h1>
        <p className="muted">{t('account.subtitle')}</p>
      </header>
      <section className="card" aria-labelledby="profile-heading">
        <h2 id="profile-heading" className="card__title">
          {t('account.profile')}
        </h2>
        <ProfileField field="fullName" label={t('account.fullName')} value={account.fullName ?? ''} onSave={save} />
        <ProfileField field="displayName" label={t('account.displayName')} value={account.displayName ?? ''} onSave={save} />
        <div className="profile-field">
          <span className="profile-field__label">{t('account.email')}</span>
          <span className="profile-field__value">{account.email}</span>
        </div>
        <div aria-live="polite">
          {saved && (
            <p className="alert alert--success" data-testid="account-saved">
              {saved}
            </p>
          )}
        </div>
        {error && (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        )}
      </section>
      <section className="card" aria-labelledby="info-heading">
        <h2 id="info-heading" className="card__title">
          {t('account.infoTitle')}
        </h2>
        <dl className="info-list">
          <div>
            <dt>{t('account.accountType')}</dt>
            <dd data-testid="account-type">{account.accountType === 'Standard' ? t('account.standard') : account.accountType}</dd>
          </div>
          <div>
            <dt>{t('account.plan')}</dt>
            <dd data-testid="account-plan">{account.plan ? planLabel(account.plan) : '—'}</dd>
          </div>
          <div>
            <dt>{t('account.created')}</dt>
            <dd>{formatDateTime(account.creationTime, i18n.language) || '—'}</dd>
          </div>
          <div>
            <dt>{t('account.lastSignIn')}</dt>
            <dd>{formatDateTime(account.lastSignInTime, i18n.language) || '—'}</dd>
          </div>
        </dl>
      </section>
      <PrivacySection email={account.email} />
    </div>
  );
}
