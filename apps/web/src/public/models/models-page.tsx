import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { PublicAgentDto } from '@gaia/contracts';
import { agentQuery } from '../../api/queries';
import { useAuth } from '../../auth/auth-context';
import { LATEST_AGENTS_COUNT } from '../../config';
import { SourceBox } from '../translator/source-box';
import { SuggestCorrection } from '../translator/suggest-correction';
import { TranslationResult } from '../translator/translation-result';
import { useTranslator } from '../translator/use-translator';
import { formatLanguage } from '../translator/word-limit';
import { latestAgents, usePublicAgents } from '../use-public-agents';
import { DirectionBar, TranslateButton } from '../translator/translator-controls';
import { useDocumentTitle } from '../../layout/use-document-title';

export function pairLabel(agent: Pick<PublicAgentDto, 'src_lang' | 'tgt_lang'>): string {
  return `${formatLanguage(agent.src_lang)} → ${formatLanguage(agent.tgt_lang)}`;
}

/** Agents whose languages or description contain the query (case-insensitive). */
export function filterAgents<T extends Pick<PublicAgentDto, 'src_lang' | 'tgt_lang' | 'custom_prompt'>>(agents: T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return agents;
  return agents.filter((a) => `${a.src_lang} ${a.tgt_lang} ${pairLabel(a)} ${a.custom_prompt ?? ''}`.toLowerCase().includes(q));
}

export function ModelsPage() {
  const { t } = useTranslation('public');
  useDocumentTitle(t('models.title'));
  const { agents, loading, error } = usePublicAgents();
  const [query, setQuery] = useState('');
  const [selectedId, setSelectedId] = useState<string>('');
  const [reversed, setReversed] = useState(false);
  const [text, setText] = useState('');
  const { state, busy, translate, reset } = useTranslator();

  const filtered = useMemo(() => filterAgents(agents, query), [agents, query]);

  const selected = agents.find((a) => a.id === selectedId) ?? agents[0] ?? null;
  const src = selected ? (reversed ? selected.tgt_lang : selected.src_lang) : '';
  const tgt = selected ? (reversed ? selected.src_lang : selected.tgt_lang) : '';
  const latest = latestAgents(agents, LATEST_AGENTS_COUNT);
  const canTranslate = !!selected && text.trim().length > 0 && !busy;
  // Signed in: the chosen agent as the session sees it; the full record (with `uid`) means owner or editor.
  const { user } = useAuth();
  const { data: record } = useQuery({ ...agentQuery(selected?.id ?? ''), enabled: !!user && !!selected });
  const canCorrect = !!user && !!selected && !!record && record.id === selected.id && 'uid' in record;

  const chooseAgent = (id: string) => {
    setSelectedId(id);
    setReversed(false);
    reset();
  };
  const search = (q: string) => {
    setQuery(q);
    // Keep the picker honest: when the chosen agent is filtered out, choose the first match.
    const matches = filterAgents(agents, q);
    if (selected && matches.length > 0 && !matches.some((a) => a.id === selected.id)) chooseAgent(matches[0].id);
  };
  const swap = () => {
    setReversed((r) => !r);
    setText('');
    reset();
  };
  const submit = () => {
    if (!selected || !canTranslate) return;
    void translate({ text: text.trim(), model_id: selected.id, src_lang: src, tgt_lang: tgt });
  };

  return (
    <div className="container page">
      <header className="page-header">
        <p className="eyebrow">{t('models.eyebrow')}</p>
        <h1>{t('models.title')}</h1>
        <p className="lead">{t('models.subtitle')}</p>
      </header>

      {loading ? (
        <p className="loading-text" role="status">
          {t('models.loading')}
        </p>
      ) : error ? (
        <p className="alert alert--error" role="alert">
          {t('models.loadFailed')}
        </p>
      ) : agents.length === 0 ? (
        <div className="empty-state">
          <p>{t('datasets.empty')}</p>
        </div>
      ) : (
        <div className="models-layout">
          <section className="card translator-card" aria-labelledby="translator-heading">
            <h2 id="translator-heading" className="card__title">
              {t('models.translatorTitle')}
            </h2>
            <div className="pair-picker">
              <label className="field">
                <span className="field-label">{t('models.searchLabel')}</span>
                <input type="search" className="input" value={query} placeholder={t('models.searchPlaceholder')} onChange={(e) => search(e.target.value)} />
              </label>
              <label className="field">
                <span className="field-label">{t('models.pairLabel')}</span>
                <select className="select" value={selected?.id ?? ''} onChange={(e) => chooseAgent(e.target.value)} data-testid="agent-select">
                  {filtered.length === 0 && <option value={selected?.id ?? ''}>{t('models.noMatch')}</option>}
                  {filtered.map((a) => (
                    <option key={a.id} value={a.id}>
                      {pairLabel(a)}
                    </option>
                  ))}
                </select>
              </label>
            </div>

            <DirectionBar source={formatLanguage(src)} target={formatLanguage(tgt)} onSwap={swap} swapLabel={t('translator.swap')} />

            <SourceBox id="models-source" label={t('translator.sourceLabel', { lang: formatLanguage(src) })} value={text} onChange={setText} />

            <TranslateButton busy={busy} disabled={!canTranslate} onClick={submit} label={t('translator.translate')} busyLabel={t('translator.translating')}>
              {selected && (
                <Link to={`/models/${encodeURIComponent(selected.id)}`} className="btn btn--outline">
                  {t('models.seeDetails')}
                </Link>
              )}
            </TranslateButton>

            <TranslationResult state={state} />
            {canCorrect && (
              <SuggestCorrection
                agentId={selected.id}
                state={state}
                reversed={reversed}
                from={formatLanguage(selected.src_lang)}
                to={formatLanguage(selected.tgt_lang)}
              />
            )}
          </section>

          <aside className="card latest-card" aria-labelledby="latest-heading">
            <h2 id="latest-heading" className="card__title">
              {t('models.latest')}
            </h2>
            <ul className="latest-list">
              {latest.map((a) => (
                <li key={a.id}>
                  <Link to={`/models/${encodeURIComponent(a.id)}`} className="latest-item">
                    <span className="latest-item__pair">{pairLabel(a)}</span>
                    <span className="latest-item__desc">{a.custom_prompt || t('agent.noDescription')}</span>
                  </Link>
                </li>
              ))}
            </ul>
            <Link to="/documentation" className="btn btn--link">
              {t('models.docsLink')}
            </Link>
          </aside>
        </div>
      )}
    </div>
  );
}
