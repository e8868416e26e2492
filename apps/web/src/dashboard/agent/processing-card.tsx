import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskDto } from '../../api/types';
import { ProgressBar } from '../components/dialog';
import { displayedProgress, estimatedMinutes } from '../lib/rules';

/**
 * Shown instead of the translator while documents process (spec §4): the bar is the larger of the server
 * progress and elapsed / estimated time (capped at 95%); the estimate in minutes, rounded up.
 */
export function ProcessingCard({ task, now = () => Date.now() }: { task: TaskDto | null; now?: () => number }) {
  const { t } = useTranslation('dashboard');
  const [, tick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(id);
  }, []);
  const created = task?.created_at ? new Date(task.created_at).getTime() : NaN;
  const elapsed = Number.isFinite(created) ? Math.max(0, now() - created) : 0;
  const percent = task ? displayedProgress(task.progress, elapsed, task.estimated_processing_time) : 0;
  const minutes = estimatedMinutes(task?.estimated_processing_time);
  return (
    <section className="card processing-card" aria-labelledby="processing-heading" data-testid="processing-card" aria-busy="true">
      <h2 id="processing-heading" className="card__title">
        <span className="spinner" aria-hidden="true" /> {t('agentPage.processingTitle')}
      </h2>
      <p className="muted">{task?.message || t('agentPage.processingText')}</p>
      <ProgressBar value={percent} label={t('agentPage.processingProgress')} testId="processing-bar" />
      <div className="processing-card__meta">
        <span data-testid="processing-percent">{t('agentPage.percent', { percent })}</span>
        {minutes > 0 && <span data-testid="processing-estimate">{t('agentPage.estimate', { count: minutes })}</span>}
      </div>
      {task && task.total_files > 0 && (
        <p className="muted small">
          {t('agentPage.filesDone', { done: task.successful_files, total: task.total_files })}
          {task.text_blocks_extracted > 0 && <> · {t('agentPage.blocks', { count: task.text_blocks_extracted })}</>}
        </p>
      )}
    </section>
  );
}
