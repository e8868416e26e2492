import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { feedbackKeys, listCorrections, undoCorrection } from '../../api/feedback-api';
import { serverErrorText } from '../../i18n/server-error';
import { formatDateTime } from '../lib/format';

/** The owner page's list of corrections (who, when, before/after) with undo; cursor pages with "Show more". */
export function CorrectionsPanel({ agentId }: { agentId: string }) {
  const { t, i18n } = useTranslation('feedback');
  const queryClient = useQueryClient();
  const list = useInfiniteQuery({
    queryKey: feedbackKeys.corrections(agentId),
    queryFn: ({ pageParam }) => listCorrections(agentId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
  const undo = useMutation({
    mutationFn: (id: string) => undoCorrection(agentId, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: feedbackKeys.corrections(agentId) }),
  });
  const items = list.data?.pages.flatMap((p) => p.corrections) ?? [];
  return (
    <section className="card" aria-labelledby="corrections-heading" data-testid="corrections-panel">
      <h2 id="corrections-heading" className="card__title">
        {t('corrections.title')}
      </h2>
      <p className="muted small">{t('corrections.help')}</p>
      {list.isPending && <p className="loading-text">{t('corrections.loading')}</p>}
      {list.isError && (
        <p className="alert alert--error" role="alert">
          {serverErrorText(list.error, t, i18n.language, t('corrections.failed'))}
        </p>
      )}
      {list.isSuccess && items.length === 0 && <p className="empty-state">{t('corrections.empty')}</p>}
      {items.length > 0 && (
        <ul className="feedback-list">
          {items.map((c) => (
            <li key={c.id} className="feedback-item" data-testid="correction-item">
              <dl className="info-list info-list--stacked">
                <div>
                  <dt>{t('corrections.source')}</dt>
                  <dd>{c.source}</dd>
                </div>
                <div>
                  <dt>{t('corrections.before')}</dt>
                  <dd>
                    <del>{c.translation}</del>
                  </dd>
                </div>
                <div>
                  <dt>{t('corrections.after')}</dt>
                  <dd data-testid="correction-after">{c.corrected}</dd>
                </div>
              </dl>
              <p className="muted small">{t('corrections.by', { who: c.author_email || c.author_uid, when: formatDateTime(c.created_at, i18n.language) })}</p>
              <button
                type="button"
                className="btn btn--ghost btn--sm btn--danger-text"
                onClick={() => undo.mutate(c.id)}
                disabled={undo.isPending}
                data-testid="correction-undo"
              >
                {undo.isPending && undo.variables === c.id ? t('corrections.undoing') : t('corrections.undo')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {undo.isError && (
        <p className="alert alert--error" role="alert">
          {serverErrorText(undo.error, t, i18n.language, t('corrections.failed'))}
        </p>
      )}
      {list.hasNextPage && (
        <button type="button" className="btn btn--outline btn--sm" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {t('corrections.more')}
        </button>
      )}
    </section>
  );
}
