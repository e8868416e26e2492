import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http';
import { translateWithSession } from '../../api/dashboard-api';
import { TRANSLATION_REQUEST_FAILED } from '../../api/translate-stream';
import type { AgentDto } from '../../api/types';
import { SourceBox } from '../../public/translator/source-box';
import { TranslationResult } from '../../public/translator/translation-result';
import { completed, IDLE, type TranslatorState } from '../../public/translator/use-translator';
import { DirectionBar, TranslateButton } from '../../public/translator/translator-controls';
import { formatLanguage } from '../lib/format';

/** Streams a translation with the session (owner/editor may test private agents). Spec §4 translation states. */
export function useSessionTranslator() {
  const [state, setState] = useState<TranslatorState>(IDLE);
  const controller = useRef<AbortController | null>(null);
  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setState(IDLE);
  }, []);
  useEffect(() => () => controller.current?.abort(), []);
  const run = useCallback(async (req: { text: string; model_id: string; src_lang: string; tgt_lang: string }) => {
    controller.current?.abort();
    const ac = new AbortController();
    controller.current = ac;
    const mine = () => controller.current === ac;
    setState({ ...IDLE, phase: 'translating' });
    try {
      const result = await translateWithSession(req, {
        signal: ac.signal,
        onEvent: (event) => {
          if (!mine()) return;
          if (event.type === 'status') setState((s) => ({ ...s, status: event.message }));
          if (event.type === 'translation_chunk') setState((s) => ({ ...s, phase: 'streaming', output: s.output + (event.content ?? '') }));
        },
      });
      if (mine()) setState((s) => ({ ...s, ...completed(result, req.text) }));
    } catch (err) {
      if (!mine() || ac.signal.aborted) return;
      setState((s) => ({ ...s, phase: 'error', error: err instanceof Error && err.message ? err.message : TRANSLATION_REQUEST_FAILED, errorCode: err instanceof ApiError ? err.code : null }));
    } finally {
      if (mine()) controller.current = null;
    }
  }, []);
  const busy = state.phase === 'translating' || state.phase === 'streaming';
  return { state, busy, translate: run, reset };
}

export function TestTranslator({ agent }: { agent: AgentDto }) {
  const { t } = useTranslation('dashboard');
  const [reversed, setReversed] = useState(false);
  const [text, setText] = useState('');
  const { state, busy, translate, reset } = useSessionTranslator();
  const src = reversed ? agent.tgt_lang : agent.src_lang;
  const tgt = reversed ? agent.src_lang : agent.tgt_lang;
  const canTranslate = text.trim().length > 0 && !busy;
  const swap = () => {
    setReversed((r) => !r);
    setText('');
    reset();
  };
  const clear = () => {
    setText('');
    reset();
  };
  return (
    <section className="card translator-card" aria-labelledby="test-translator-heading" data-testid="test-translator">
      <h2 id="test-translator-heading" className="card__title">
        {t('agentPage.testTitle')}
      </h2>
      <DirectionBar source={formatLanguage(src)} target={formatLanguage(tgt)} onSwap={swap} swapLabel={t('agentPage.swap')} />
      <SourceBox id="owner-source" label={t('agentPage.sourceLabel', { lang: formatLanguage(src) })} value={text} onChange={setText} onClear={clear} />
      <TranslateButton busy={busy} disabled={!canTranslate} onClick={() => canTranslate && void translate({ text: text.trim(), model_id: agent.id, src_lang: src, tgt_lang: tgt })} label={t('agentPage.translate')} busyLabel={t('agentPage.translating')} />
      <TranslationResult state={state} />
    </section>
  );
}
