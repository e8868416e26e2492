import type { IngestionTaskDto } from '@gaia/contracts';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { processDocumentsWithProgress, type ProcessDocumentsInput } from '../../api/dashboard-api';
import { ApiError } from '../../api/http';
import { serverErrorText } from '../../i18n/server-error';
import { ProgressBar } from '../components/dialog';
import { FilePicker, type PickedFile } from '../components/file-picker';
import { useDashboardData } from '../lib/dashboard-data';
import { LANGUAGE_SUGGESTIONS } from '../lib/format';
import { BUILDER_ACCEPT, checkBuilderFile, MAX_FILES_PER_UPLOAD, UPLOAD_RELOAD_MS, type FileProblem } from '../lib/rules';
import { useTaskProgress } from '../lib/use-task-progress';
import { FindPublicData } from './find-public-data';

type Phase = 'idle' | 'uploading' | 'processing' | 'completed' | 'failed';

export function useFileProblemText() {
  const { t } = useTranslation('dashboard');
  return useCallback(
    (name: string, problem: FileProblem | null): string | null => {
      if (!problem) return null;
      if (problem.kind === 'unsupported') return t('files.unsupported', { name });
      if (problem.kind === 'empty') return t('files.empty', { name });
      return t('files.tooLarge', { name, max: problem.maxMb });
    },
    [t],
  );
}

let fileSeq = 0;

/** Builder tab: create an agent from uploaded files (spec §4 document processing, §5 validation). */
export function BuilderTab({ onReload }: { onReload?: () => void }) {
  const { t, i18n } = useTranslation('dashboard');
  const { reload } = useDashboardData();
  const problemText = useFileProblemText();
  const listId = useId();
  const [src, setSrc] = useState('');
  const [tgt, setTgt] = useState('');
  const [description, setDescription] = useState('');
  const [coreMemory, setCoreMemory] = useState('');
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [upload, setUpload] = useState(0);
  const [started, setStarted] = useState<{ taskId: string; modelId: string; totalFiles: number } | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string; modelId: string } | null>(null);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
    },
    [],
  );

  const onTerminal = useCallback(
    (task: IngestionTaskDto) => {
      if (task.status === 'COMPLETED') {
        setPhase('completed');
        setResult({ ok: true, text: t('builder.processed', { done: task.successful_files, total: task.total_files }), modelId: task.model_id });
        setSrc('');
        setTgt('');
        setDescription('');
        setCoreMemory('');
        setFiles([]);
        void reload();
        // Spec §4: the page reloads 5 s after a successful upload; here the agent data is reloaded in place.
        reloadTimer.current = setTimeout(() => (onReload ? onReload() : void reload()), UPLOAD_RELOAD_MS);
      } else {
        setPhase('failed');
        const detail = task.message || task.errors?.map((e) => `${e.file}: ${e.message}`).join('; ') || t('builder.processFailedDefault');
        setResult({ ok: false, text: t('builder.processingFailed', { message: detail }), modelId: task.model_id });
        void reload();
      }
    },
    [t, reload, onReload],
  );
  const { task, error: statusError } = useTaskProgress(phase === 'processing' ? started?.taskId : null, onTerminal);

  const busy = phase === 'uploading' || phase === 'processing';
  const valid = files.filter((f) => !f.problem);

  const addFiles = (list: File[]) => {
    setFormError(null);
    setFiles((prev) => {
      const next = [...prev];
      for (const file of list) {
        if (next.some((p) => p.file.name === file.name && p.file.size === file.size)) continue;
        let problem = problemText(file.name, checkBuilderFile(file));
        if (!problem && next.filter((p) => !p.problem).length >= MAX_FILES_PER_UPLOAD)
          problem = t('files.tooMany', { name: file.name, max: MAX_FILES_PER_UPLOAD });
        next.push({ key: `f${++fileSeq}`, file, problem });
      }
      return next;
    });
  };

  /** POST /api/documents/process/ with upload progress; the new agent's task is then followed. */
  const processing = useMutation({
    mutationFn: (input: ProcessDocumentsInput) =>
      processDocumentsWithProgress(input, { onProgress: (f) => setUpload(Math.round(f * 100)), idempotencyKey: crypto.randomUUID?.() }),
    onMutate: () => {
      setPhase('uploading');
      setUpload(0);
    },
    onSuccess: (res) => {
      setStarted({ taskId: res.task_id, modelId: res.model_id, totalFiles: res.total_files });
      setPhase('processing');
      void reload();
    },
    onError: (err) => {
      console.error('Failed to process files', err);
      setPhase('failed');
      const message =
        err instanceof ApiError && err.status !== 0 && err.message !== 'Failed to process files'
          ? serverErrorText(err, t, i18n.language, t('builder.processFilesFailed'))
          : t('builder.processFilesFailed');
      setResult({ ok: false, text: message, modelId: '' });
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setResult(null);
    if (!src.trim() || !tgt.trim() || !description.trim() || valid.length === 0) {
      setFormError(t('builder.required'));
      return;
    }
    setFormError(null);
    processing.mutate({ srcLang: src, tgtLang: tgt, description, coreMemory, files: valid.map((f) => f.file) });
  };

  const progress = phase === 'uploading' ? upload : (task?.progress ?? 0);

  return (
    <div className="dash-page">
      <header className="dash-page__header">
        <h1 tabIndex={-1}>{t('builder.title')}</h1>
        <p className="muted">{t('builder.subtitle')}</p>
      </header>
      <form className="card dash-form" onSubmit={submit} noValidate aria-describedby={formError ? 'builder-error' : undefined}>
        <datalist id={listId}>
          {LANGUAGE_SUGGESTIONS.map((l) => (
            <option key={l} value={l} />
          ))}
        </datalist>
        <div className="form-grid">
          <label className="field">
            <span className="field-label">
              {t('builder.source')} <span aria-hidden="true">*</span>
            </span>
            <input
              className="input"
              list={listId}
              value={src}
              onChange={(e) => {
                setSrc(e.target.value);
                setFormError(null);
              }}
              disabled={busy}
              required
              aria-required="true"
              placeholder={t('builder.sourcePlaceholder')}
            />
          </label>
          <label className="field">
            <span className="field-label">
              {t('builder.target')} <span aria-hidden="true">*</span>
            </span>
            <input
              className="input"
              list={listId}
              value={tgt}
              onChange={(e) => {
                setTgt(e.target.value);
                setFormError(null);
              }}
              disabled={busy}
              required
              aria-required="true"
              placeholder={t('builder.targetPlaceholder')}
            />
          </label>
        </div>
        <label className="field">
          <span className="field-label">
            {t('builder.description')} <span aria-hidden="true">*</span>
          </span>
          <textarea
            className="textarea textarea--short"
            value={description}
            onChange={(e) => {
              setDescription(e.target.value);
              setFormError(null);
            }}
            disabled={busy}
            required
            aria-required="true"
            placeholder={t('builder.descriptionPlaceholder')}
          />
        </label>
        <label className="field">
          <span className="field-label">
            {t('builder.coreMemory')} <span className="muted">({t('optional')})</span>
          </span>
          <textarea
            className="textarea textarea--short"
            value={coreMemory}
            onChange={(e) => setCoreMemory(e.target.value)}
            disabled={busy}
            placeholder={t('builder.coreMemoryPlaceholder')}
          />
        </label>
        <FilePicker
          label={`${t('builder.files')} *`}
          hint={t('builder.filesHint', { max: MAX_FILES_PER_UPLOAD })}
          accept={BUILDER_ACCEPT}
          files={files}
          disabled={busy}
          onAdd={addFiles}
          onRemove={(key) => setFiles((prev) => prev.filter((f) => f.key !== key))}
        />
        {formError && (
          <p id="builder-error" className="alert alert--error" role="alert">
            {formError}
          </p>
        )}
        {busy && (
          <div className="dash-processing" aria-live="polite" data-testid="builder-progress">
            <p className="dash-processing__label">
              {phase === 'uploading'
                ? t('builder.uploading', { percent: upload })
                : task?.message || t('builder.processing', { total: started?.totalFiles ?? valid.length })}
            </p>
            <ProgressBar value={progress} label={phase === 'uploading' ? t('builder.uploadProgress') : t('builder.processingProgress')} />
            <p className="muted small">{phase === 'processing' && t('builder.progressPercent', { percent: Math.round(progress) })}</p>
            {statusError && <p className="muted small">{statusError}</p>}
          </div>
        )}
        {result && (
          <div className={`alert ${result.ok ? 'alert--success' : 'alert--error'}`} role={result.ok ? 'status' : 'alert'} data-testid="builder-result">
            <p className="alert__text">{result.text}</p>
            {result.modelId && (
              <Link to={`/dashboard/${encodeURIComponent(result.modelId)}`} className="btn btn--outline btn--sm">
                {t('builder.openAgent')}
              </Link>
            )}
          </div>
        )}
        <div className="dash-form__actions">
          <button type="submit" className="btn btn--primary btn--lg" disabled={busy || valid.length === 0}>
            {busy && <span className="spinner spinner--light" aria-hidden="true" />}
            {busy ? t('builder.working') : t('builder.submit')}
          </button>
        </div>
      </form>
      <FindPublicData />
    </div>
  );
}
