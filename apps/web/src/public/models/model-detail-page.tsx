import type { AgentView } from '@gaia/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { datasetFileName, downloadAgentFiles, saveBlob } from '../../api/public-api';
import { agentQuery } from '../../api/queries';
import { CopyButton } from '../copy-button';
import { SourceBox } from '../translator/source-box';
import { SuggestCorrection } from '../translator/suggest-correction';
import { TranslationResult } from '../translator/translation-result';
import { useAgentTranslator } from '../translator/use-agent-translator';
import { formatLanguage } from '../translator/word-limit';
import { DirectionBar, TranslateButton } from '../translator/translator-controls';
import { useDocumentTitle } from '../../layout/use-document-title';

export function curlExample(agent: Pick<AgentView, 'id' | 'src_lang' | 'tgt_lang'>, origin: string): string {
  return [
    `curl -N -X POST ${origin}/api/translate/ \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -H "X-API-Key: YOUR_API_KEY" \\`,
    `  -d '${JSON.stringify({ text: 'Hello', model_id: agent.id, src_lang: agent.src_lang, tgt_lang: agent.tgt_lang, stream: true })}'`,
  ].join('\n');
}

export function ModelDetailPage() {
  const { modelId = '' } = useParams();
  const { t, i18n } = useTranslation('public');
  const navigate = useNavigate();
  const { data: agent, isPending: loading } = useQuery(agentQuery(modelId));
  const download = useMutation({
    mutationFn: (id: string) => downloadAgentFiles(id),
    onSuccess: (blob, id) => saveBlob(blob, datasetFileName(id)),
    onError: (err) => console.error('Dataset download failed', err),
  });
  const { state, busy, translate, reversed, text, setText, swap, clear, direction, canTranslate } = useAgentTranslator();
  useDocumentTitle(agent ? `${formatLanguage(agent.src_lang)} → ${formatLanguage(agent.tgt_lang)}` : loading ? null : t('agent.notFoundTitle'));

  const goBack = () => (window.history.length > 1 ? navigate(-1) : navigate('/models'));

  if (loading) {
    return (
      <div className="container page">
        <p className="loading-text" role="status">
          {t('agent.loading')}
        </p>
      </div>
    );
  }
  if (!agent) {
    return (
      <div className="container page page-narrow not-found">
        <h1>{t('agent.notFoundTitle')}</h1>
        <p className="lead">{t('agent.notFoundText')}</p>
        <button type="button" className="btn btn--primary" onClick={goBack}>
          {t('agent.goBack')}
        </button>
      </div>
    );
  }

  const { src, tgt } = direction(agent);
  const submit = () => {
    if (canTranslate) void translate({ text: text.trim(), model_id: agent.id, src_lang: src, tgt_lang: tgt });
  };
  const created = agent.created_at ? new Date(agent.created_at).toLocaleDateString(i18n.language, { year: 'numeric', month: 'long', day: 'numeric' }) : '';
  const curl = curlExample(agent, window.location.origin);

  return (
    <div className="container page">
      <button type="button" className="btn btn--ghost btn--sm back-button" onClick={goBack}>
        ← {t('agent.back')}
      </button>
      <header className="page-header page-header--left">
        <p className="eyebrow">{t('agent.eyebrow')}</p>
        <h1>
          {formatLanguage(agent.src_lang)} → {formatLanguage(agent.tgt_lang)}
        </h1>
      </header>

      <div className="detail-layout">
        <section className="card translator-card" aria-labelledby="agent-translator-heading">
          <h2 id="agent-translator-heading" className="card__title">
            {t('models.translatorTitle')}
          </h2>
          <DirectionBar source={formatLanguage(src)} target={formatLanguage(tgt)} onSwap={swap} swapLabel={t('translator.swap')} />
          <SourceBox id="agent-source" label={t('translator.sourceLabel', { lang: formatLanguage(src) })} value={text} onChange={setText} onClear={clear} />
          <TranslateButton busy={busy} disabled={!canTranslate} onClick={submit} label={t('translator.translate')} busyLabel={t('translator.translating')} />
          <TranslationResult state={state} />
          {'uid' in agent && (
            <SuggestCorrection agentId={agent.id} state={state} reversed={reversed} from={formatLanguage(agent.src_lang)} to={formatLanguage(agent.tgt_lang)} />
          )}
        </section>

        <aside className="side-cards">
          <section className="card" aria-labelledby="details-heading">
            <h2 id="details-heading" className="card__title">
              {t('agent.detailsTitle')}
            </h2>
            <p>{agent.custom_prompt?.trim() || t('agent.noDescription')}</p>
            <dl className="meta-list">
              <dt>{t('agent.id')}</dt>
              <dd>
                <code>{agent.id}</code>
              </dd>
              {created && (
                <>
                  <dt>{t('agent.created')}</dt>
                  <dd>{created}</dd>
                </>
              )}
              {typeof agent.pair_count === 'number' && (
                <>
                  <dt>{t('agent.pairs')}</dt>
                  <dd>{agent.pair_count.toLocaleString(i18n.language)}</dd>
                </>
              )}
            </dl>
          </section>
          <section className="card" aria-labelledby="download-heading">
            <h2 id="download-heading" className="card__title">
              {t('agent.downloadTitle')}
            </h2>
            <p className="muted">{t('agent.downloadText')}</p>
            <button type="button" className="btn btn--outline btn--block" onClick={() => download.mutate(agent.id)} disabled={download.isPending}>
              {download.isPending ? t('datasets.downloading') : t('agent.downloadButton')}
            </button>
          </section>
          <section className="card" aria-labelledby="api-heading">
            <div className="card__title-row">
              <h2 id="api-heading" className="card__title">
                {t('agent.apiTitle')}
              </h2>
              <CopyButton text={curl} />
            </div>
            <p className="muted">{t('agent.apiText')}</p>
            <pre className="code-block code-block--wrap" tabIndex={0}>
              <code>{curl}</code>
            </pre>
          </section>
        </aside>
      </div>
    </div>
  );
}
