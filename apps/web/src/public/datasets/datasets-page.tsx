import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { datasetFileName, downloadAgentFiles, saveBlob } from '../../api/public-api';
import { serverErrorText } from '../../i18n/server-error';
import { pairLabel } from '../models/models-page';
import { usePublicAgents } from '../use-public-agents';
import { useDocumentTitle } from '../../layout/use-document-title';

type Message = { kind: 'success' | 'error'; text: string } | null;

function preview(text: string | undefined, max = 60): string {
  const s = (text ?? '').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function DatasetsPage() {
  const { t, i18n } = useTranslation('public');
  useDocumentTitle(t('datasets.title'));
  const { agents, loading } = usePublicAgents();
  const [selectedId, setSelectedId] = useState('');
  const [message, setMessage] = useState<Message>(null);
  const downloading = useMutation({
    mutationFn: (id: string) => downloadAgentFiles(id),
    onMutate: () => setMessage(null),
    onSuccess: (blob, id) => {
      saveBlob(blob, datasetFileName(id));
      setMessage({ kind: 'success', text: t('datasets.success') });
    },
    onError: (err) => setMessage({ kind: 'error', text: t('datasets.failed', { message: serverErrorText(err, t, i18n.language) }) }),
  });
  const busy = downloading.isPending;

  const download = () => {
    if (!selectedId) setMessage({ kind: 'error', text: t('datasets.selectFirst') });
    else downloading.mutate(selectedId);
  };

  return (
    <div className="container page">
      <header className="page-header">
        <p className="eyebrow">{t('datasets.eyebrow')}</p>
        <h1>{t('datasets.title')}</h1>
        <p className="lead">{t('datasets.subtitle')}</p>
      </header>

      <div className="stats-row stats-row--compact">
        <div className="stat">
          <span className="stat__value">{t('landing.stats.sentences.value')}</span>
          <span className="stat__label">{t('datasets.sentences')}</span>
        </div>
        <div className="stat">
          <span className="stat__value" data-testid="public-agent-count">
            {loading ? '…' : agents.length}
          </span>
          <span className="stat__label">{t('datasets.publicAgents')}</span>
        </div>
      </div>

      <section className="card dataset-card" aria-labelledby="dataset-heading">
        <h2 id="dataset-heading" className="card__title">
          {t('datasets.cardTitle')}
        </h2>
        {loading ? (
          <p className="loading-text" role="status">
            {t('datasets.loading')}
          </p>
        ) : agents.length === 0 ? (
          <p className="empty-state">{t('datasets.empty')}</p>
        ) : (
          <>
            <label className="field">
              <span className="field-label">{t('datasets.selectLabel')}</span>
              <select
                className="select"
                value={selectedId}
                onChange={(e) => {
                  setSelectedId(e.target.value);
                  setMessage(null);
                }}
              >
                <option value="">{t('datasets.choose')}</option>
                {agents.map((a) => (
                  <option key={a.id} value={a.id}>
                    {pairLabel(a)}
                    {a.custom_prompt ? ` — ${preview(a.custom_prompt)}` : ''}
                  </option>
                ))}
              </select>
            </label>
            {selectedId && (
              <p className="agent-id">
                <span className="muted">{t('agent.id')}: </span>
                <code>{selectedId}</code>
              </p>
            )}
          </>
        )}
        <button type="button" className="btn btn--primary" onClick={download} disabled={busy || loading || agents.length === 0}>
          {busy ? t('datasets.downloading') : t('datasets.download')}
        </button>
        {message && (
          <p className={`alert alert--${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
            {message.text}
          </p>
        )}
      </section>
    </div>
  );
}
