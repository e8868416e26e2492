import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { GlossaryTermDto } from '@gaia/contracts';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addGlossaryTerm,
  deleteGlossaryTerm,
  updateGlossaryTerm,
  FEEDBACK_LIMITS,
  feedbackKeys,
  glossaryFormatOf,
  importGlossary,
  listGlossary,
} from '../../api/feedback-api';
import { serverErrorText } from '../../i18n/server-error';
import { formatNumber } from '../lib/format';

/** The agent's glossary on the owner page: terms with their required translation, add, delete, import a file. */
export function GlossaryPanel({ agentId }: { agentId: string }) {
  const { t, i18n } = useTranslation('feedback');
  const id = useId();
  const queryClient = useQueryClient();
  const [term, setTerm] = useState('');
  const [translation, setTranslation] = useState('');
  const [note, setNote] = useState('');
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  /** The term being edited in the form (null: the form adds a term). */
  const [editing, setEditing] = useState<GlossaryTermDto | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: feedbackKeys.glossary(agentId) });
  const list = useInfiniteQuery({
    queryKey: feedbackKeys.glossary(agentId),
    queryFn: ({ pageParam }) => listGlossary(agentId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
  const fill = (g: GlossaryTermDto | null) => {
    setEditing(g);
    setTerm(g?.term ?? '');
    setTranslation(g?.translation ?? '');
    setNote(g?.note ?? '');
    setCaseSensitive(g?.case_sensitive ?? false);
    setFormError(null);
  };
  const add = useMutation({
    mutationFn: () => {
      const body = { term: term.trim(), translation: translation.trim(), note: note.trim(), case_sensitive: caseSensitive };
      return editing ? updateGlossaryTerm(agentId, editing.id, body) : addGlossaryTerm(agentId, body);
    },
    onSuccess: () => {
      fill(null);
      void refresh();
    },
  });
  const remove = useMutation({ mutationFn: (termId: string) => deleteGlossaryTerm(agentId, termId), onSettled: refresh });
  const upload = useMutation({
    mutationFn: (f: { format: 'csv' | 'tsv' | 'tbx'; text: string }) => importGlossary(agentId, f.format, f.text),
    onSuccess: () => void refresh(),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!term.trim() || !translation.trim()) {
      setFormError(t('glossary.required'));
      return;
    }
    setFormError(null);
    add.mutate();
  };
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const format = glossaryFormatOf(file.name);
    if (!format) {
      setFileError(t('glossary.badFile', { name: file.name }));
      return;
    }
    const text = await file.text();
    if (text.length > FEEDBACK_LIMITS.glossary_file) {
      setFileError(t('glossary.tooBig', { name: file.name, max: formatNumber(FEEDBACK_LIMITS.glossary_file, i18n.language) }));
      return;
    }
    setFileError(null);
    upload.mutate({ format, text });
  };
  const items = list.data?.pages.flatMap((p) => p.terms) ?? [];
  const failure = add.error ?? remove.error ?? upload.error;
  return (
    <section className="card" aria-labelledby="glossary-heading" data-testid="glossary-panel">
      <h2 id="glossary-heading" className="card__title">
        {t('glossary.title')}
      </h2>
      <p className="muted small">{t('glossary.help')}</p>
      {list.isPending && <p className="loading-text">{t('glossary.loading')}</p>}
      {list.isSuccess && items.length === 0 && <p className="empty-state">{t('glossary.empty')}</p>}
      {items.length > 0 && (
        <ul className="feedback-list">
          {items.map((g) => (
            <li key={g.id} className="feedback-item glossary-term" data-testid="glossary-term">
              <span>
                <strong>{g.term}</strong> → <span data-testid="glossary-translation">{g.translation}</span>
                {g.case_sensitive && <span className="pill pill--private"> {t('glossary.caseShort')}</span>}
              </span>
              {g.note && <span className="muted small"> {g.note}</span>}
              <button type="button" className="btn btn--ghost btn--sm" aria-label={t('glossary.editLabel', { term: g.term })} onClick={() => fill(g)}>
                {t('glossary.edit')}
              </button>
              <button
                type="button"
                className="btn btn--ghost btn--sm btn--danger-text"
                aria-label={t('glossary.deleteLabel', { term: g.term })}
                onClick={() => remove.mutate(g.id)}
                disabled={remove.isPending}
              >
                {t('glossary.delete')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <button type="button" className="btn btn--outline btn--sm" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {t('glossary.more')}
        </button>
      )}
      <form className="glossary-form" onSubmit={submit} noValidate>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-term`}>
            {t('glossary.term')}
          </label>
          <input
            id={`${id}-term`}
            className="input"
            value={term}
            maxLength={FEEDBACK_LIMITS.term}
            onChange={(e) => setTerm(e.target.value)}
            data-testid="glossary-term-input"
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-translation`}>
            {t('glossary.translation')}
          </label>
          <input
            id={`${id}-translation`}
            className="input"
            value={translation}
            maxLength={FEEDBACK_LIMITS.translation}
            onChange={(e) => setTranslation(e.target.value)}
            data-testid="glossary-translation-input"
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-note`}>
            {t('glossary.note')}
          </label>
          <input id={`${id}-note`} className="input" value={note} maxLength={FEEDBACK_LIMITS.note} onChange={(e) => setNote(e.target.value)} />
        </div>
        <label className="checkbox-row">
          <input type="checkbox" checked={caseSensitive} onChange={(e) => setCaseSensitive(e.target.checked)} /> {t('glossary.caseSensitive')}
        </label>
        {formError && (
          <p className="alert alert--error" role="alert">
            {formError}
          </p>
        )}
        <div className="suggest-correction__actions">
          <button type="submit" className="btn btn--primary btn--sm" disabled={add.isPending} data-testid="glossary-add">
            {add.isPending ? t('glossary.adding') : editing ? t('glossary.save') : t('glossary.add')}
          </button>
          {editing && (
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => fill(null)} disabled={add.isPending}>
              {t('glossary.cancelEdit')}
            </button>
          )}
        </div>
      </form>
      <label className="btn btn--outline btn--sm glossary-import">
        {upload.isPending ? t('glossary.importing') : t('glossary.import')}
        <input
          type="file"
          accept=".csv,.tsv,.tab,.txt,.tbx,.xml"
          className="visually-hidden"
          onChange={(e) => void onFile(e)}
          disabled={upload.isPending}
          data-testid="glossary-file"
        />
      </label>
      {upload.isSuccess && (
        <p className="alert alert--success" role="status">
          {t('glossary.imported', upload.data)}
        </p>
      )}
      {fileError && (
        <p className="alert alert--error" role="alert">
          {fileError}
        </p>
      )}
      {failure && (
        <p className="alert alert--error" role="alert">
          {serverErrorText(failure, t, i18n.language, t('glossary.failed'))}
        </p>
      )}
    </section>
  );
}
