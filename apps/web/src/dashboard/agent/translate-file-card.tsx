import type { AgentDto } from '@gaia/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '../../api/public-api';
import { queryKeys } from '../../api/queries';
import { downloadTranslatedFile, fileTranslationStatus, startFileTranslation, TRANSLATE_FILE_ACCEPT } from '../../api/translate-file-api';
import { serverErrorText } from '../../i18n/server-error';
import { ProgressBar } from '../components/dialog';

/** Status polling of a running file translation (the spec's 2 s). */
export const FILE_STATUS_POLL_MS = 2000;

const isDelimited = (name: string) => /\.(csv|tsv)$/i.test(name);

/**
 * "Translate a file" on the agent page: a TXT, CSV/TSV (a chosen column), TMX or XLIFF file is translated by
 * this agent into the same format, with progress, then downloaded.
 */
export function TranslateFileCard({ agent, pollMs = FILE_STATUS_POLL_MS }: { agent: AgentDto; pollMs?: number }) {
  const { t, i18n } = useTranslation('translateFile');
  const [file, setFile] = useState<File | null>(null);
  const [column, setColumn] = useState('');
  const [taskId, setTaskId] = useState<string | null>(null);

  const start = useMutation({
    mutationFn: (input: { file: File; column: string }) =>
      startFileTranslation({ file: input.file, modelId: agent.id, srcLang: agent.src_lang, tgtLang: agent.tgt_lang, column: input.column }, t('failed')),
    onMutate: () => setTaskId(null),
    onSuccess: (started) => setTaskId(started.task_id),
  });
  /** The task, polled while it runs. */
  const status = useQuery({
    queryKey: queryKeys.fileTask(taskId ?? ''),
    queryFn: () => fileTranslationStatus(taskId ?? '', t('statusFailed')),
    enabled: !!taskId,
    refetchInterval: (query) => (query.state.data?.status === 'PROCESSING' ? pollMs : false),
  });
  const download = useMutation({
    mutationFn: (id: string) => downloadTranslatedFile(id, t('downloadFailed')),
    onSuccess: ({ blob, name }) => saveBlob(blob, name),
  });
  const task = taskId ? (status.data ?? null) : null;
  const failure = start.error ?? status.error ?? download.error;
  const error = failure ? serverErrorText(failure, t, i18n.language, t(start.error ? 'failed' : status.error ? 'statusFailed' : 'downloadFailed')) : null;
  const busy = start.isPending || (!!taskId && status.isPending);

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
          <input
            type="text"
            value={column}
            maxLength={200}
            placeholder={t('columnPlaceholder')}
            onChange={(e) => setColumn(e.target.value)}
            data-testid="translate-file-column"
          />
        </label>
      )}
      <button
        type="button"
        className="btn btn--primary"
        disabled={!file || busy || task?.status === 'PROCESSING'}
        onClick={() => file && start.mutate({ file, column })}
        data-testid="translate-file-start"
      >
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
            <button type="button" className="btn" onClick={() => task && download.mutate(task.id)} data-testid="translate-file-download">
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
