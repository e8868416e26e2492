import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AgentDto } from '../../api/types';
import { downloadTranslatedFile, fileTranslationStatus, startFileTranslation, TRANSLATE_FILE_ACCEPT, type FileTask } from '../../api/translate-file-api';
import { ProgressBar } from '../components/dialog';

/** Status polling of a running file translation (the spec's 2 s). */
export const FILE_STATUS_POLL_MS = 2000;

const isDelimited = (name: string) => /\.(csv|tsv)$/i.test(name);

/**
 * "Translate a file" on the agent page: a TXT, CSV/TSV (a chosen column), TMX or XLIFF file is translated by
 * this agent into the same format, with progress, then downloaded.
 */
export function TranslateFileCard({ agent, pollMs = FILE_STATUS_POLL_MS }: { agent: AgentDto; pollMs?: number }) {
  const { t } = useTranslation('translateFile');
  const [file, setFile] = useState<File | null>(null);
  const [column, setColumn] = useState('');
  const [task, setTask] = useState<FileTask | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);

  useEffect(() => {
    if (!task || task.status !== 'PROCESSING') return;
    const id = setTimeout(() => {
      fileTranslationStatus(task.id, t('statusFailed'))
        .then((next) => alive.current && setTask(next))
        .catch((e: Error) => alive.current && setError(e.message));
    }, pollMs);
    return () => clearTimeout(id);
  }, [task, pollMs, t]);

  const start = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    setTask(null);
    try {
      const started = await startFileTranslation({ file, modelId: agent.id, srcLang: agent.src_lang, tgtLang: agent.tgt_lang, column }, t('failed'));
      setTask(await fileTranslationStatus(started.task_id, t('statusFailed')));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const download = async () => {
    if (!task) return;
    try {
      const { blob, name } = await downloadTranslatedFile(task.id, t('downloadFailed'));
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <section className="card" aria-labelledby="translate-file-heading" data-testid="translate-file-card">
      <h2 id="translate-file-heading" className="card__title">
        {t('title')}
      </h2>
      <p className="muted small">{t('hint')}</p>
      <label className="field">
        <span className="field__label">{t('fileLabel')}</span>
        <input type="file" accept={TRANSLATE_FILE_ACCEPT} onChange={(e) => setFile(e.target.files?.[0] ?? null)} data-testid="translate-file-input" />
      </label>
      {file && isDelimited(file.name) && (
        <label className="field">
          <span className="field__label">{t('columnLabel')}</span>
          <input type="text" value={column} maxLength={200} placeholder={t('columnPlaceholder')} onChange={(e) => setColumn(e.target.value)} data-testid="translate-file-column" />
        </label>
      )}
      <button type="button" className="btn btn--primary" disabled={!file || busy || task?.status === 'PROCESSING'} onClick={() => void start()} data-testid="translate-file-start">
        {t('start')}
      </button>
      {task && (
        <div aria-live="polite">
          <ProgressBar value={task.progress} label={t('progress')} testId="translate-file-progress" />
          <p className="muted small" data-testid="translate-file-status">
            {task.status === 'COMPLETED'
              ? t('done', { translated: task.translated_segments, total: task.total_segments })
              : task.status === 'FAILED'
                ? t('failedWith', { message: task.message })
                : t('running', { percent: task.progress })}
          </p>
          {task.status === 'COMPLETED' && (
            <button type="button" className="btn" onClick={() => void download()} data-testid="translate-file-download">
              {t('download')}
            </button>
          )}
        </div>
      )}
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
