import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IngestionTaskDto } from '@gaia/contracts';
import { ProgressBar } from '../components/dialog';
import { formatNumber } from '../lib/format';
import { remainingSeconds, timeLeft, type ProgressSample } from '../lib/processing-estimate';
import { displayedProgress } from '../lib/rules';

/**
 * Shown instead of the translator while documents process (spec §4): the bar is the larger of the server
 * progress and elapsed / estimated time (capped at 95%); the time left is learned from the throughput measured
 * on this task (progress since the first update seen, over the time it took), never a fixed guess.
 */
export function ProcessingCard({ task, now = () => Date.now() }: { task: IngestionTaskDto | null; now?: () => number }) {
  const { t, i18n } = useTranslation('dashboard');
  const [, tick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(id);
  }, []);
  const created = task?.created_at ? new Date(task.created_at).getTime() : NaN;
  const elapsed = Number.isFinite(created) ? Math.max(0, now() - created) : 0;
  const percent = task ? displayedProgress(task.progress, elapsed, task.estimated_processing_time) : 0;
  // The first server progress seen for this task: the start of the throughput measurement.
  const first = useRef<{ taskId: string; sample: ProgressSample } | null>(null);
  if (task && first.current?.taskId !== task.id) first.current = { taskId: task.id, sample: { at: now(), progress: task.progress } };
  const left = task ? remainingSeconds(first.current?.sample ?? null, { at: now(), progress: task.progress }) : null;
  const estimate = left === null ? null : timeLeft(left);
  return (
    <section className="card processing-card" aria-labelledby="processing-heading" data-testid="processing-card" aria-busy="true">
      <h2 id="processing-heading" className="card__title">
        <span className="spinner" aria-hidden="true" /> {t('agentPage.processingTitle')}
      </h2>
      <p className="muted">{task?.message || t('agentPage.processingText')}</p>
      <ProgressBar value={percent} label={t('agentPage.processingProgress')} testId="processing-bar" />
      <div className="processing-card__meta">
        <span data-testid="processing-percent">{t('agentPage.percent', { percent })}</span>
        <span data-testid="processing-estimate">
          {estimate ? t(`agentPage.timeLeft.${estimate.unit}`, { count: estimate.count }) : t('agentPage.timeLeft.measuring')}
        </span>
      </div>
      {task && task.total_files > 0 && (
        <p className="muted small">
          {t('agentPage.filesDone', { done: task.successful_files, total: task.total_files })}
          {task.text_blocks_extracted > 0 && (
            <> · {t('agentPage.blocks', { count: task.text_blocks_extracted, value: formatNumber(task.text_blocks_extracted, i18n.language) })}</>
          )}
        </p>
      )}
    </section>
  );
}
