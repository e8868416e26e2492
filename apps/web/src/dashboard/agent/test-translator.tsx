import type { AgentDto } from '@gaia/contracts';
import { useTranslation } from 'react-i18next';
import { SourceBox } from '../../public/translator/source-box';
import { SuggestCorrection } from '../../public/translator/suggest-correction';
import { TranslationResult } from '../../public/translator/translation-result';
import { useAgentTranslator } from '../../public/translator/use-agent-translator';
import { DirectionBar, TranslateButton } from '../../public/translator/translator-controls';
import { formatLanguage } from '../lib/format';

/** The owner's (or an editor's) test translator: streams with the session, so private agents can be tested. Spec §4. */
export function TestTranslator({ agent }: { agent: AgentDto }) {
  const { t } = useTranslation('dashboard');
  const { state, busy, translate, reversed, text, setText, swap, clear, direction, canTranslate } = useAgentTranslator('session');
  const { src, tgt } = direction(agent);
  return (
    <section className="card translator-card" aria-labelledby="test-translator-heading" data-testid="test-translator">
      <h2 id="test-translator-heading" className="card__title">
        {t('agentPage.testTitle')}
      </h2>
      <DirectionBar source={formatLanguage(src)} target={formatLanguage(tgt)} onSwap={swap} swapLabel={t('agentPage.swap')} />
      <SourceBox id="owner-source" label={t('agentPage.sourceLabel', { lang: formatLanguage(src) })} value={text} onChange={setText} onClear={clear} />
      <TranslateButton
        busy={busy}
        disabled={!canTranslate}
        onClick={() => canTranslate && void translate({ text: text.trim(), model_id: agent.id, src_lang: src, tgt_lang: tgt })}
        label={t('agentPage.translate')}
        busyLabel={t('agentPage.translating')}
      />
      <TranslationResult state={state} />
      <SuggestCorrection agentId={agent.id} state={state} reversed={reversed} from={formatLanguage(agent.src_lang)} to={formatLanguage(agent.tgt_lang)} />
    </section>
  );
}
