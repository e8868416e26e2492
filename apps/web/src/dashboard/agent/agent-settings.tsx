import type { AgentDto } from '@gaia/contracts';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { updateAgent } from '../../api/account-api';
import { UPDATE_AGENT_FAILED, updateModelWithFiles } from '../../api/dashboard-api';
import { ApiError } from '../../api/http';
import { wordedOrNull } from '../../i18n/server-error';
import { ProgressBar } from '../components/dialog';
import { FilePicker, type PickedFile } from '../components/file-picker';
import { formatLanguage, LANGUAGE_SUGGESTIONS } from '../lib/format';
import { EDIT_ACCEPT, invalidEditFiles, UPDATE_RELOAD_MS } from '../lib/rules';

let seq = 0;

interface AgentEdit {
  src: string;
  tgt: string;
  description: string;
  coreMemory: string;
  files: File[];
}

interface Props {
  agent: AgentDto;
  /** Called with the new agent state (and the new task id when files were sent). */
  onUpdated(agent: AgentDto, taskId?: string): void;
  /** Spec §4: the page reloads 15 s after a successful update. */
  reload?: () => void;
}

/** Agent Settings card with the Edit Agent form (spec §2, §5). */
export function AgentSettings({ agent, onUpdated, reload = () => window.location.reload() }: Props) {
  const { t, i18n } = useTranslation('dashboard');
  const listId = useId();
  const [editing, setEditing] = useState(false);
  const [src, setSrc] = useState(agent.src_lang);
  const [tgt, setTgt] = useState(agent.tgt_lang);
  const [description, setDescription] = useState(agent.custom_prompt ?? '');
  const [coreMemory, setCoreMemory] = useState(agent.core_memory ?? '');
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [upload, setUpload] = useState<number | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reloadRef = useRef(reload);
  reloadRef.current = reload;
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const startEdit = () => {
    setSrc(agent.src_lang);
    setTgt(agent.tgt_lang);
    setDescription(agent.custom_prompt ?? '');
    setCoreMemory(agent.core_memory ?? '');
    setFiles([]);
    setInvalid(null);
    update.reset();
    setSuccess(null);
    setEditing(true);
  };

  /** PATCH /api/agents/{id}, or POST /api/update-model/ with progress when files are added (a new processing task). */
  const update = useMutation({
    mutationFn: async (edit: AgentEdit): Promise<{ next: AgentDto; taskId?: string }> => {
      const fields = {
        src_lang: edit.src.trim().toLowerCase(),
        tgt_lang: edit.tgt.trim().toLowerCase(),
        custom_prompt: edit.description.trim(),
        core_memory: edit.coreMemory.trim(),
      };
      if (!edit.files.length) return { next: await updateAgent(agent.id, fields) };
      setUpload(0);
      const res = await updateModelWithFiles(
        { modelId: agent.id, srcLang: edit.src, tgtLang: edit.tgt, description: edit.description, coreMemory: edit.coreMemory, files: edit.files },
        { onProgress: (f) => setUpload(Math.round(f * 100)) },
      );
      const taskId = res.task_id;
      return {
        next: {
          ...agent,
          ...fields,
          processing_task_id: taskId ?? agent.processing_task_id,
          processing_status: taskId ? 'PROCESSING' : agent.processing_status,
        },
        taskId,
      };
    },
    onSuccess: ({ next, taskId }) => {
      onUpdated(next, taskId);
      setEditing(false);
      setFiles([]);
      setSuccess(t('agentPage.updated', { seconds: UPDATE_RELOAD_MS / 1000 }));
      timer.current = setTimeout(() => reloadRef.current(), UPDATE_RELOAD_MS);
    },
    onError: (err) => console.error(UPDATE_AGENT_FAILED, err),
    onSettled: () => setUpload(null),
  });
  const busy = update.isPending;
  const serverError = update.error instanceof ApiError && update.error.message !== UPDATE_AGENT_FAILED ? wordedOrNull(update.error, t, i18n.language) : null;
  const error = invalid ?? (update.isError ? (serverError ? t('agentPage.updateFailedWith', { message: serverError }) : t('agentPage.updateFailed')) : null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.reset();
    setInvalid(null);
    if (!src.trim() || !tgt.trim() || !description.trim()) {
      setInvalid(t('agentPage.requiredFields'));
      return;
    }
    const bad = invalidEditFiles(files.map((f) => f.file));
    if (bad.length) {
      setInvalid(t('agentPage.invalidFiles', { files: bad.join(', ') }));
      return;
    }
    update.mutate({ src, tgt, description, coreMemory, files: files.map((f) => f.file) });
  };

  return (
    <section className="card" aria-labelledby="settings-heading" data-testid="agent-settings">
      <div className="card__title-row">
        <h2 id="settings-heading" className="card__title">
          {t('agentPage.settingsTitle')}
        </h2>
        {!editing && (
          <button type="button" className="btn btn--outline btn--sm" onClick={startEdit}>
            {t('agentPage.edit')}
          </button>
        )}
      </div>
      {success && (
        <p className="alert alert--success alert--spaced" role="status">
          {success}
        </p>
      )}
      {!editing ? (
        <dl className="info-list info-list--stacked">
          <div>
            <dt>{t('agentPage.languages')}</dt>
            <dd>
              {formatLanguage(agent.src_lang)} → {formatLanguage(agent.tgt_lang)}
            </dd>
          </div>
          <div>
            <dt>{t('agentPage.description')}</dt>
            <dd data-testid="agent-description">{agent.custom_prompt?.trim() || t('agentPage.noDescription')}</dd>
          </div>
          {agent.core_memory?.trim() && (
            <div>
              <dt>{t('agentPage.coreMemory')}</dt>
              <dd className="pre-wrap">{agent.core_memory}</dd>
            </div>
          )}
        </dl>
      ) : null}
      {!editing && agent.learned_memory?.trim() && (
        <details className="memory-details">
          <summary>{t('agentPage.learnedMemory')}</summary>
          <pre className="memory-box" tabIndex={0}>
            {agent.learned_memory}
          </pre>
        </details>
      )}
      {editing && (
        <form className="dash-form" onSubmit={submit} noValidate aria-label={t('agentPage.editFormLabel')}>
          <datalist id={listId}>
            {LANGUAGE_SUGGESTIONS.map((l) => (
              <option key={l} value={l} />
            ))}
          </datalist>
          <div className="form-grid">
            <label className="field">
              <span className="field-label">{t('builder.source')} *</span>
              <input className="input" list={listId} value={src} onChange={(e) => setSrc(e.target.value)} required aria-required="true" disabled={busy} />
            </label>
            <label className="field">
              <span className="field-label">{t('builder.target')} *</span>
              <input className="input" list={listId} value={tgt} onChange={(e) => setTgt(e.target.value)} required aria-required="true" disabled={busy} />
            </label>
          </div>
          <label className="field">
            <span className="field-label">{t('builder.description')} *</span>
            <textarea
              className="textarea textarea--short"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              required
              aria-required="true"
              disabled={busy}
            />
          </label>
          <label className="field">
            <span className="field-label">{t('builder.coreMemory')}</span>
            <textarea className="textarea textarea--short" value={coreMemory} onChange={(e) => setCoreMemory(e.target.value)} disabled={busy} />
          </label>
          <FilePicker
            label={t('agentPage.addFiles')}
            hint={t('agentPage.addFilesHint')}
            accept={EDIT_ACCEPT}
            files={files}
            disabled={busy}
            onAdd={(list) => {
              setInvalid(null);
              setFiles((prev) => [...prev, ...list.map((file) => ({ key: `e${++seq}`, file, problem: null }))]);
            }}
            onRemove={(key) => setFiles((prev) => prev.filter((f) => f.key !== key))}
          />
          {upload !== null && <ProgressBar value={upload} label={t('builder.uploadProgress')} />}
          {error && (
            <p className="alert alert--error" role="alert">
              {error}
            </p>
          )}
          <div className="dash-form__actions">
            <button type="button" className="btn btn--ghost" onClick={() => setEditing(false)} disabled={busy}>
              {t('cancel')}
            </button>
            <button type="submit" className="btn btn--primary" disabled={busy}>
              {busy && <span className="spinner spinner--light" aria-hidden="true" />}
              {t('agentPage.saveChanges')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
