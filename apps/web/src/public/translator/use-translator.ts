import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/http';
import { getPublicConfig } from '../../api/public-api';
import { translate, TRANSLATION_REQUEST_FAILED, type TranslateResult } from '../../api/translate-stream';
import type { TranslateRequest, UntranslatedSpan } from '../../api/types';

export type TranslationPhase = 'idle' | 'translating' | 'streaming' | 'complete' | 'error';

export interface TranslatorState {
  phase: TranslationPhase;
  /** Last status message of the stream. */
  status: string | null;
  /** Text accumulated from chunks, then the final translation. */
  output: string;
  /** Seconds, from translation_complete. */
  responseTime: number | null;
  error: string | null;
  /** The server's stable code of the failure (X-Error-Code), to word it in the UI language. */
  errorCode?: string | null;
  /** Text that was translated (the untranslated spans are offsets into it). */
  source: string;
  /** 0..1 from translation_complete; null when the server did not say. */
  confidence: number | null;
  untranslated: UntranslatedSpan[];
}

export const IDLE: TranslatorState = { phase: 'idle', status: null, output: '', responseTime: null, error: null, source: '', confidence: null, untranslated: [] };

/** The state once a translation of `source` completed. */
export function completed(result: TranslateResult, source: string): Partial<TranslatorState> {
  return { phase: 'complete', output: result.translation, responseTime: result.responseTime, source, confidence: result.confidence, untranslated: result.untranslated };
}

/** Spec §4 translation request states: idle → translating → streaming → complete | error. */
export function useTranslator() {
  const [state, setState] = useState<TranslatorState>(IDLE);
  const controller = useRef<AbortController | null>(null);

  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setState(IDLE);
  }, []);

  useEffect(() => () => controller.current?.abort(), []);

  const run = useCallback(async (req: TranslateRequest) => {
    controller.current?.abort();
    const ac = new AbortController();
    controller.current = ac;
    setState({ ...IDLE, phase: 'translating' });
    const mine = () => controller.current === ac;
    try {
      let apiKey: string | undefined;
      try {
        apiKey = (await getPublicConfig()).publicApiKey;
      } catch (err) {
        console.warn('Public configuration unavailable; translating with the session only.', err);
      }
      const result = await translate(req, {
        apiKey,
        signal: ac.signal,
        onEvent: (event) => {
          if (!mine()) return;
          if (event.type === 'status') setState((s) => ({ ...s, status: event.message }));
          if (event.type === 'translation_chunk') setState((s) => ({ ...s, phase: 'streaming', output: s.output + (event.content ?? '') }));
        },
      });
      if (!mine()) return;
      setState((s) => ({ ...s, ...completed(result, req.text) }));
    } catch (err) {
      if (!mine() || ac.signal.aborted) return;
      // A network failure (fetch's TypeError) has no server message: use the spec's fallback.
      const message = err instanceof Error && err.message && !(err instanceof TypeError) ? err.message : TRANSLATION_REQUEST_FAILED;
      setState((s) => ({ ...s, phase: 'error', error: message, errorCode: err instanceof ApiError ? err.code : null }));
    } finally {
      if (mine()) controller.current = null;
    }
  }, []);

  const busy = state.phase === 'translating' || state.phase === 'streaming';
  return { state, busy, translate: run, reset };
}
