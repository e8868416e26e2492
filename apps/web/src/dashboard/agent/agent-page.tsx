import type { AgentDto, IngestionTaskDto } from '@gaia/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useAuth } from '../../auth/auth-context';
import { serverErrorText } from '../../i18n/server-error';
import { CodeBlock } from '../components/copy';
import { ConfirmDialog } from '../components/dialog';
import { formatDate, formatLanguage, formatNumber } from '../lib/format';
import { agentCounts } from '../lib/processing-estimate';
import { curlExample, isOwner } from '../lib/rules';
import { useTaskProgress } from '../lib/use-task-progress';
import { AgentSettings } from './agent-settings';
import { CorrectionsPanel } from './corrections-panel';
import { GlossaryPanel } from './glossary-panel';
import { useAgentWrite, useDashboardAgent, useDeleteAgentMutation, useDownloadFilesMutation, useVisibilityMutation } from './agent-queries';
import { ProcessingCard } from './processing-card';
import { QualityCard } from './quality-card';
import { TestTranslator } from './test-translator';
import { TranslateFileCard } from './translate-file-card';

export interface AgentViewProps {
  agent: AgentDto;
  owner: boolean;
  onDeleted(): void;
  /** Spec §4: what runs 15 s after a successful Edit Agent (the page reload by default). */
  reload?: () => void;
}

/** The owner's (or an editor's) view of one agent: /dashboard/{id}. */
export function AgentView({ agent, owner, onDeleted, reload }: AgentViewProps) {
  const { t, i18n } = useTranslation('dashboard');
  const [taskId, setTaskId] = useState<string | null>(
    agent.processing_status === 'COMPLETED' || agent.processing_status === 'FAILED' ? null : (agent.processing_task_id ?? null),
  );
  /** The last build's failure, as the agent record says (this page writes a task's end into it: onTerminal). */
  const taskError = agent.processing_status === 'FAILED' ? (agent.processing_error ?? null) : null;
  const [confirmDelete, setConfirmDelete] = useState(false);
  const onAgentChange = useAgentWrite();
  const visibility = useVisibilityMutation(agent);
  const deletion = useDeleteAgentMutation(agent.id);
  const download = useDownloadFilesMutation(agent.id);

  /** Tasks this page saw end: a stale read of the agent that still names one does not bring its progress card back. */
  const endedTasks = useRef(new Set<string>());
  const onTerminal = useCallback(
    (task: IngestionTaskDto) => {
      if (taskId) endedTasks.current.add(taskId);
      setTaskId(null);
      if (task.status === 'COMPLETED') {
        // The totals stay the server's: its agent_updated push brings them (the task counted only this upload).
        onAgentChange({ ...agent, processing_task_id: null, processing_status: 'COMPLETED', processing_error: null });
      } else {
        const message = task.message || task.errors?.map((e) => `${e.file}: ${e.message}`).join('; ') || '';
        onAgentChange({ ...agent, processing_task_id: null, processing_status: 'FAILED', processing_error: message });
      }
    },
    [agent, onAgentChange, taskId],
  );
  const { task } = useTaskProgress(taskId, onTerminal);
  const processing = !!taskId;
  const counts = agentCounts(agent, processing ? task : null);
  useEffect(() => {
    // A task started elsewhere (Edit Agent in another tab, agent_updated) is followed too.
    const id = agent.processing_task_id;
    if (id && !endedTasks.current.has(id) && agent.processing_status !== 'COMPLETED' && agent.processing_status !== 'FAILED') setTaskId(id);
  }, [agent.processing_task_id, agent.processing_status]);

  const savingVisibility = visibility.isPending;
  const visibilityError = visibility.error ? serverErrorText(visibility.error, t, i18n.language, t('agentPage.visibilityFailed')) : null;
  const deleting = deletion.isPending;
  const deleteError = deletion.error ? serverErrorText(deletion.error, t, i18n.language, t('agentPage.deleteFailed')) : null;
  const doDelete = () => {
    deletion.mutate(undefined, { onSettled: () => setConfirmDelete(false), onSuccess: onDeleted });
  };

  const curl = curlExample(agent, window.location.origin);

  return (
    <div className="dash-page agent-page">
      <header className="agent-page__header">
        <div>
          <p className="eyebrow">{owner ? t('agentPage.eyebrowOwner') : t('agentPage.eyebrowEditor')}</p>
          <h1 tabIndex={-1} className="agent-page__title">
            <span className="pair-badge" data-testid="pair-badge">
              {formatLanguage(agent.src_lang)} <span aria-hidden="true">⇄</span>
              <span className="visually-hidden">{t('agentPage.and')}</span> {formatLanguage(agent.tgt_lang)}
            </span>
          </h1>
          <p className="muted small">
            <code>{agent.id}</code> · {t('overview.created', { date: formatDate(agent.created_at, i18n.language) })}
            {typeof agent.pair_count === 'number' && (
              <>
                {' · '}
                <span data-testid="pair-count">{t('agentPage.pairs', { count: counts.pairs, value: formatNumber(counts.pairs, i18n.language) })}</span>
              </>
            )}
          </p>
        </div>
        <span className={`pill ${agent.public ? 'pill--public' : 'pill--private'}`} data-testid="visibility-label">
          {agent.public ? t('agent.public') : t('agent.private')}
        </span>
      </header>

      {taskError !== null && (
        <p className="alert alert--error" role="alert" data-testid="processing-error">
          {t('agentPage.processingFailed', { message: taskError || t('builder.processFailedDefault') })}
        </p>
      )}

      <div className="agent-layout">
        <div className="agent-layout__main">
          {processing ? <ProcessingCard task={task} /> : <TestTranslator agent={agent} />}
          {!processing && <TranslateFileCard agent={agent} />}
          <AgentSettings
            agent={agent}
            reload={reload}
            onUpdated={(next, newTask) => {
              onAgentChange(next);
              if (newTask) setTaskId(newTask);
            }}
          />
          <GlossaryPanel agentId={agent.id} />
          <CorrectionsPanel agentId={agent.id} />
        </div>
        <aside className="agent-layout__side">
          {owner && (
            <section className="card" aria-labelledby="visibility-heading" data-testid="visibility-card">
              <h2 id="visibility-heading" className="card__title">
                {t('agentPage.visibilityTitle')}
              </h2>
              <div className="switch-row">
                <button
                  type="button"
                  role="switch"
                  aria-checked={agent.public}
                  aria-labelledby="visibility-switch-label"
                  className={`switch${agent.public ? ' is-on' : ''}`}
                  onClick={() => visibility.mutate(!agent.public)}
                  disabled={savingVisibility}
                  data-testid="visibility-toggle"
                >
                  <span className="switch__thumb" />
                </button>
                <span id="visibility-switch-label" className="switch-row__label">
                  {agent.public ? t('agent.public') : t('agent.private')}
                </span>
                {savingVisibility && <span className="spinner" aria-label={t('agentPage.saving')} />}
              </div>
              <p className="muted small">{agent.public ? t('agentPage.publicHelp') : t('agentPage.privateHelp')}</p>
              {visibilityError && (
                <p className="alert alert--error" role="alert">
                  {visibilityError}
                </p>
              )}
            </section>
          )}
          <section className="card" aria-labelledby="data-heading">
            <h2 id="data-heading" className="card__title">
              {t('agentPage.dataTitle')}
            </h2>
            <dl className="info-list info-list--stacked">
              <div>
                <dt>{t('agentPage.documents')}</dt>
                <dd data-testid="document-count">{formatNumber(counts.documents, i18n.language)}</dd>
              </div>
              <div>
                <dt>{t('agentPage.textBlocks')}</dt>
                <dd data-testid="text-block-count">{formatNumber(counts.textBlocks, i18n.language)}</dd>
              </div>
            </dl>
            {agent.document_source && (
              <button type="button" className="btn btn--outline btn--block" onClick={() => download.mutate()} disabled={download.isPending}>
                {download.isPending && <span className="spinner" aria-hidden="true" />}
                {download.isPending ? t('agentPage.downloading') : t('agentPage.download')}
              </button>
            )}
            {download.isError && (
              <p className="alert alert--error" role="alert">
                {serverErrorText(download.error, t, i18n.language, t('agentPage.downloadFailed'))}
              </p>
            )}
          </section>
          <QualityCard agent={agent} />
          <section className="card" aria-labelledby="curl-heading">
            <h2 id="curl-heading" className="card__title">
              {t('agentPage.apiTitle')}
            </h2>
            <CodeBlock title="cURL" code={curl} testId="agent-curl" />
          </section>
          {owner && (
            <section className="card card--danger" aria-labelledby="danger-heading">
              <h2 id="danger-heading" className="card__title">
                {t('agentPage.dangerTitle')}
              </h2>
              <p className="muted small">{t('agentPage.deleteHelp')}</p>
              <button type="button" className="btn btn--danger btn--block" onClick={() => setConfirmDelete(true)} disabled={deleting}>
                {deleting ? t('agentPage.deleting') : t('agentPage.delete')}
              </button>
              {deleteError && (
                <p className="alert alert--error" role="alert" data-testid="delete-error">
                  {deleteError}
                </p>
              )}
            </section>
          )}
        </aside>
      </div>
      {confirmDelete && (
        <ConfirmDialog
          title={t('agentPage.deleteTitle')}
          message={t('agentPage.deleteConfirm')}
          confirmLabel={deleting ? t('agentPage.deleting') : t('agentPage.delete')}
          cancelLabel={t('cancel')}
          danger
          busy={deleting}
          onConfirm={doDelete}
          onCancel={() => setConfirmDelete(false)}
        />
      )}
    </div>
  );
}

export function AgentPage() {
  const { modelId = '' } = useParams();
  const { t } = useTranslation('dashboard');
  const navigate = useNavigate();
  const { user } = useAuth();
  const { agent, loading } = useDashboardAgent(modelId);

  const back = (
    <button type="button" className="btn btn--ghost btn--sm back-button" onClick={() => navigate('/dashboard')}>
      ← {t('agentPage.back')}
    </button>
  );
  if (loading) {
    return (
      <div className="dash-page">
        {back}
        <p className="loading-text" role="status">
          {t('agentPage.loading')}
        </p>
      </div>
    );
  }
  if (!agent) {
    return (
      <div className="dash-page not-found">
        {back}
        <h1 tabIndex={-1}>{t('agentPage.notFoundTitle')}</h1>
        <p className="lead">{t('agentPage.notFoundText')}</p>
      </div>
    );
  }
  return (
    <>
      {back}
      <AgentView key={agent.id} agent={agent} owner={isOwner(agent, user)} onDeleted={() => navigate('/dashboard')} />
    </>
  );
}
