import type { TeamMemberDto } from '@gaia/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addTeamMember, removeTeamMember } from '../../api/account-api';
import { ApiError } from '../../api/http';
import { queryKeys, teamQuery } from '../../api/queries';
import { serverErrorText } from '../../i18n/server-error';
import { ConfirmDialog } from '../components/dialog';
import { useDashboardData } from '../lib/dashboard-data';
import { formatDate } from '../lib/format';
import { initials, TEAM_ERROR_MS, validateInvite } from '../lib/rules';
import { useTimedMessage } from '../lib/use-timed-message';

/** Server answers worth showing (validation, conflict), in the UI language; anything else gets the spec's fallback. */
function inviteFailure(err: unknown, t: TFunction, lang: string, fallback: string): string {
  return err instanceof ApiError && (err.status === 400 || err.status === 409) ? serverErrorText(err, t, lang, fallback) : fallback;
}

/** Team tab: editors of all of the owner's agents (spec §5, §6). */
export function TeamTab() {
  const { t, i18n } = useTranslation('dashboard');
  const { reload } = useDashboardData();
  const queryClient = useQueryClient();
  const membersQuery = useQuery(teamQuery());
  // A failed list shows as empty (the failure is logged).
  const members = membersQuery.data ?? (membersQuery.isError ? [] : null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useTimedMessage<string>(TEAM_ERROR_MS);
  const [notice, setNotice] = useTimedMessage<string>(TEAM_ERROR_MS);
  const [removing, setRemoving] = useState<TeamMemberDto | null>(null);

  /** The team changed: its list, and the agents it may edit (shared lists). */
  const teamChanged = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.team });
    void reload();
  };
  const adding = useMutation({
    mutationFn: (input: { name: string; email: string }) => addTeamMember(input),
    onSuccess: (member) => {
      queryClient.setQueryData<TeamMemberDto[]>(queryKeys.team, (m) => [...(m ?? []).filter((x) => x.id !== member.id), member]);
      setName('');
      setEmail('');
      setError(null);
      setNotice(t('team.added', { email: member.email }));
      teamChanged();
    },
    onError: (err) => {
      console.error('Failed to add editor', err);
      setError(inviteFailure(err, t, i18n.language, t('team.addFailed')));
    },
  });
  const removal = useMutation({
    mutationFn: (member: TeamMemberDto) => removeTeamMember(member.id),
    onSuccess: (_none, member) => {
      queryClient.setQueryData<TeamMemberDto[]>(queryKeys.team, (m) => (m ?? []).filter((x) => x.id !== member.id));
      teamChanged();
    },
    onError: (err) => {
      console.error('Failed to remove editor', err);
      setError(t('team.removeFailed'));
    },
    onSettled: () => setRemoving(null),
  });
  const busy = adding.isPending;
  const removeBusy = removal.isPending;

  const invite = (e: FormEvent) => {
    e.preventDefault();
    const problem = validateInvite(name, email);
    if (problem) {
      setError(problem === 'Please fill in all fields.' ? t('team.fillAll') : t('team.invalidEmail'));
      return;
    }
    adding.mutate({ name: name.trim(), email: email.trim().toLowerCase() });
  };
  const remove = () => {
    if (removing) removal.mutate(removing);
  };

  return (
    <div className="dash-page">
      <header className="dash-page__header">
        <h1 tabIndex={-1}>{t('team.title')}</h1>
        <p className="muted">{t('team.subtitle')}</p>
      </header>

      <section className="card" aria-labelledby="invite-heading">
        <h2 id="invite-heading" className="card__title">
          {t('team.inviteTitle')}
        </h2>
        <form className="inline-form" onSubmit={invite} noValidate>
          <label className="field inline-form__grow">
            <span className="field-label">{t('team.name')}</span>
            <input className="input" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
          </label>
          <label className="field inline-form__grow">
            <span className="field-label">{t('team.email')}</span>
            <input className="input" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
          </label>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy && <span className="spinner spinner--light" aria-hidden="true" />}
            {t('team.invite')}
          </button>
        </form>
        <div aria-live="assertive">
          {error && (
            <p className="alert alert--error" role="alert" data-testid="team-error">
              {error}
            </p>
          )}
        </div>
        <div aria-live="polite">{notice && <p className="alert alert--success">{notice}</p>}</div>
      </section>

      <section className="card" aria-labelledby="members-heading">
        <h2 id="members-heading" className="card__title">
          {t('team.membersTitle')}
        </h2>
        {members === null ? (
          <p className="muted" role="status">
            {t('loading')}
          </p>
        ) : members.length === 0 ? (
          <p className="empty-state">{t('team.empty')}</p>
        ) : (
          <ul className="member-list">
            {members.map((m) => (
              <li key={m.id} className="member" data-testid="team-member">
                <span className="avatar" aria-hidden="true">
                  {initials(m.name || m.email)}
                </span>
                <span className="member__who">
                  <strong>{m.name}</strong>
                  <span className="muted">{m.email}</span>
                </span>
                <span className="member__meta">
                  <span className="pill pill--shared">{t('team.roleEditor')}</span>
                  <span className="pill pill--private">{t(m.status === 'active' ? 'team.statusActive' : 'team.statusInvited')}</span>
                  <span className="muted small">{t('team.addedOn', { date: formatDate(m.addedAt, i18n.language) })}</span>
                </span>
                <button
                  type="button"
                  className="btn btn--ghost btn--sm btn--danger-text"
                  onClick={() => setRemoving(m)}
                  aria-label={`${t('team.remove')} ${m.name}`}
                >
                  {t('team.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      {removing && (
        <ConfirmDialog
          title={t('team.removeTitle')}
          message={t('team.removeConfirm')}
          confirmLabel={t('team.remove')}
          cancelLabel={t('cancel')}
          danger
          busy={removeBusy}
          onConfirm={remove}
          onCancel={() => setRemoving(null)}
        />
      )}
    </div>
  );
}
