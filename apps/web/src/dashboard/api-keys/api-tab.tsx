import type { ApiKeyDto, KeyUsageDto } from '@gaia/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createApiKey, revokeApiKey } from '../../api/account-api';
import { apiKeysQuery, keyUsageQuery, queryKeys, usageSummaryQuery } from '../../api/queries';
import { CodeBlock } from '../components/copy';
import { ConfirmDialog } from '../components/dialog';
import { PlanLimits } from '../components/plan-limits';
import { useDashboardData } from '../lib/dashboard-data';
import { formatDate, formatDateTime, formatNumber, formatPair } from '../lib/format';
import { curlExample, formatCost } from '../lib/rules';
import { NewKeyDialog } from './new-key-dialog';

export function KeyUsagePanel({ keyDto, usage }: { keyDto: ApiKeyDto; usage: KeyUsageDto | null }) {
  const { t, i18n } = useTranslation('dashboard');
  return (
    <section className="card" aria-labelledby="usage-heading" data-testid="key-usage">
      <h2 id="usage-heading" className="card__title">
        {t('api.usageTitle', { name: keyDto.name })}
      </h2>
      {!usage ? (
        <p className="muted" role="status">
          {t('loading')}
        </p>
      ) : (
        <>
          <dl className="usage-grid">
            <div>
              <dt>{t('api.totalRequests')}</dt>
              <dd data-testid="usage-requests">{formatNumber(usage.total_requests, i18n.language)}</dd>
            </div>
            <div>
              <dt>{t('api.inputCost')}</dt>
              <dd>{formatCost(usage.input_cost)}</dd>
            </div>
            <div>
              <dt>{t('api.outputCost')}</dt>
              <dd>{formatCost(usage.output_cost)}</dd>
            </div>
            <div>
              <dt>{t('api.totalCost')}</dt>
              <dd data-testid="usage-cost">{formatCost(usage.total_cost)}</dd>
            </div>
            <div>
              <dt>{t('api.avgTokens')}</dt>
              <dd>{formatNumber(Math.round((usage.average_tokens_per_request ?? 0) * 10) / 10, i18n.language)}</dd>
            </div>
          </dl>
          {usage.requests?.length > 0 && (
            <div className="table-wrap" tabIndex={0} role="region" aria-label={t('api.recentRequests')}>
              <table className="table table--compact">
                <caption className="visually-hidden">{t('api.recentRequests')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('api.when')}</th>
                    <th scope="col">{t('api.inputTokens')}</th>
                    <th scope="col">{t('api.outputTokens')}</th>
                    <th scope="col">{t('api.words')}</th>
                  </tr>
                </thead>
                <tbody>
                  {usage.requests.slice(0, 10).map((r, i) => (
                    <tr key={`${r.created_at}-${i}`}>
                      <td>{formatDateTime(r.created_at, i18n.language)}</td>
                      <td>{formatNumber(r.input_tokens, i18n.language)}</td>
                      <td>{formatNumber(r.output_tokens, i18n.language)}</td>
                      <td>{formatNumber(r.words, i18n.language)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** API tab: key list, create (shown once), revoke with confirmation, per-key usage, cURL example. */
export function ApiTab() {
  const { t, i18n } = useTranslation('dashboard');
  const { all } = useDashboardData();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; apiKey: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyDto | null>(null);
  /** The key whose usage is shown: undefined until the user picks (or unpicks, null) one. */
  const [chosen, setChosen] = useState<string | null | undefined>(undefined);
  /** The agent the user picked for the cURL example ('' until they pick one). */
  const [pickedAgentId, setPickedAgentId] = useState('');
  const { data: summary } = useQuery(usageSummaryQuery());
  const keysQuery = useQuery(apiKeysQuery());
  // A failed list shows as empty (the failure is logged).
  const keys = keysQuery.data ?? (keysQuery.isError ? [] : null);
  // Usage of the first active key is shown without a click.
  const selected = chosen === undefined ? (keys?.find((k) => !k.revoked)?.key_id ?? null) : chosen;
  const { data: usage = null } = useQuery({ ...keyUsageQuery(selected ?? ''), enabled: !!selected });

  const refreshKeys = () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys });
  const creation = useMutation({
    mutationFn: (keyName: string) => createApiKey(keyName),
    onSuccess: async (res, keyName) => {
      setCreated({ name: keyName, apiKey: res.api_key });
      setName('');
      await refreshKeys();
      if (res.key?.key_id) setChosen(res.key.key_id);
    },
    onError: (err) => console.error('Failed to create API key', err),
  });
  const revocation = useMutation({
    mutationFn: (keyId: string) => revokeApiKey(keyId),
    onSuccess: refreshKeys,
    onError: (err) => console.error('Failed to revoke API key', err),
    onSettled: () => setRevoking(null),
  });
  const creating = creation.isPending;
  const revokeBusy = revocation.isPending;

  const create = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || creating) return;
    creation.mutate(trimmed);
  };
  const revoke = () => {
    if (revoking) revocation.mutate(revoking.key_id);
  };

  const selectedKey = keys?.find((k) => k.key_id === selected) ?? null;
  // The picked agent, else the first one (also once the picked one has left the list).
  const agent = all.find((a) => a.id === pickedAgentId) ?? all[0] ?? null;

  return (
    <div className="dash-page">
      <header className="dash-page__header">
        <h1 tabIndex={-1}>{t('api.title')}</h1>
        <p className="muted">{t('api.subtitle')}</p>
      </header>

      <section className="card" aria-labelledby="create-key-heading">
        <h2 id="create-key-heading" className="card__title">
          {t('api.createTitle')}
        </h2>
        <form className="inline-form" onSubmit={create}>
          <label className="field inline-form__grow">
            <span className="field-label">{t('api.keyName')}</span>
            <input className="input" value={name} onChange={(e) => setName(e.target.value)} placeholder={t('api.keyNamePlaceholder')} maxLength={100} />
          </label>
          <button type="submit" className="btn btn--primary" disabled={!name.trim() || creating}>
            {creating && <span className="spinner spinner--light" aria-hidden="true" />}
            {t('api.create')}
          </button>
        </form>
      </section>

      <section className="card" aria-labelledby="keys-heading">
        <h2 id="keys-heading" className="card__title">
          {t('api.keysTitle')}
        </h2>
        {keys === null ? (
          <p className="muted" role="status">
            {t('loading')}
          </p>
        ) : keys.length === 0 ? (
          <p className="empty-state">{t('api.noKeys')}</p>
        ) : (
          <ul className="key-list">
            {keys.map((k) => (
              <li
                key={k.key_id}
                className={`key-item${k.revoked ? ' is-revoked' : ''}${k.key_id === selected ? ' is-selected' : ''}`}
                data-testid="api-key-row"
              >
                <div className="key-item__main">
                  <strong>{k.name}</strong>
                  <code className="muted">{k.prefix}…</code>
                </div>
                <div className="key-item__meta">
                  <span className={`pill ${k.revoked ? 'pill--failed' : 'pill--public'}`}>{k.revoked ? t('api.revoked') : t('api.active')}</span>
                  <span className="muted small">{t('api.createdOn', { date: formatDate(k.created_at, i18n.language) })}</span>
                </div>
                <div className="key-item__actions">
                  <button
                    type="button"
                    className="btn btn--outline btn--sm"
                    aria-pressed={k.key_id === selected}
                    onClick={() => setChosen(k.key_id === selected ? null : k.key_id)}
                    aria-label={`${t('api.viewUsage')} ${k.name}`}
                  >
                    {t('api.viewUsage')}
                  </button>
                  {!k.revoked && (
                    <button
                      type="button"
                      className="btn btn--ghost btn--sm btn--danger-text"
                      onClick={() => setRevoking(k)}
                      aria-label={`${t('api.revoke')} ${k.name}`}
                    >
                      {t('api.revoke')}
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      {summary && <PlanLimits summary={summary} keyUsage={selectedKey && !selectedKey.revoked ? usage : null} keyName={selectedKey?.name} />}
      {selectedKey && <KeyUsagePanel keyDto={selectedKey} usage={usage} />}

      <section className="card" aria-labelledby="curl-heading">
        <h2 id="curl-heading" className="card__title">
          {t('api.curlTitle')}
        </h2>
        {all.length === 0 ? (
          <p className="muted">{t('api.curlNoAgents')}</p>
        ) : (
          <>
            <label className="field">
              <span className="field-label">{t('api.selectAgent')}</span>
              <select className="select" value={agent?.id ?? ''} onChange={(e) => setPickedAgentId(e.target.value)}>
                {all.map((a) => (
                  <option key={a.id} value={a.id}>
                    {formatPair(a)} · {a.id.slice(0, 8)}
                  </option>
                ))}
              </select>
            </label>
            {agent && <CodeBlock title="cURL" code={curlExample(agent, window.location.origin)} testId="curl-example" />}
          </>
        )}
      </section>

      {created && <NewKeyDialog name={created.name} apiKey={created.apiKey} onDone={() => setCreated(null)} />}
      {revoking && (
        <ConfirmDialog
          title={t('api.revokeTitle')}
          message={t('api.revokeConfirm', { name: revoking.name })}
          confirmLabel={t('api.revoke')}
          cancelLabel={t('cancel')}
          danger
          busy={revokeBusy}
          onConfirm={revoke}
          onCancel={() => setRevoking(null)}
        />
      )}
    </div>
  );
}
