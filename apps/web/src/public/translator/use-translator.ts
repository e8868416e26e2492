import type { AppliedTerm, EngineKind, TranslateHttpBody, TranslationExplanation, UntranslatedSpan } from '@gaia/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/http';
import { publicConfigQuery } from '../../api/queries';
import { translate, TRANSLATION_REQUEST_FAILED, type TranslateResult } from '../../api/translate-stream';

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
  /** The examples, lexicon and glossary entries that shaped the answer ("Why this translation?"); null until complete. */
  explanation: TranslationExplanation | null;
  /** Glossary terms of the agent the answer applied; empty until complete. */
  appliedTerms: AppliedTerm[];
  /** Engine that answered (its confidence is calibrated only for `builtin`); null until complete or when not said. */
  engine: EngineKind | null;
}

export const IDLE: TranslatorState = {
  phase: 'idle',
  status: null,
  output: '',
  responseTime: null,
  error: null,
  source: '',
  confidence: null,
  untranslated: [],
  explanation: null,
  appliedTerms: [],
  engine: null,
};

/** The state once a translation of `source` completed. */
export function completed(result: TranslateResult, source: string): Partial<TranslatorState> {
  return {
    phase: 'complete',
    output: result.translation,
    responseTime: result.responseTime,
    source,
    confidence: result.confidence,
    untranslated: result.untranslated,
    explanation: result.explanation,
    appliedTerms: result.appliedTerms,
    engine: result.engine,
  };
}

/** The state of a failed translation: the server's text (a network failure has none: the spec's fallback) and code. */
export function failed(err: unknown): Partial<TranslatorState> {
  const message = err instanceof Error && err.message && !(err instanceof TypeError) ? err.message : TRANSLATION_REQUEST_FAILED;
  return { phase: 'error', error: message, errorCode: err instanceof ApiError ? err.code : null };
}

/**
 * Who pays for the translations: `public-key` (the public pages: the platform's public key, plus the session
 * when signed in) or `session` (the dashboard's test translator: owners and editors may test private agents).
 */
export type TranslatorCredentials = 'public-key' | 'session';

export type TranslateInput = Omit<TranslateHttpBody, 'stream'>;

/** The one translator of the app. Spec §4 translation request states: idle → translating → streaming → complete | error. */
export function useTranslator(credentials: TranslatorCredentials = 'public-key') {
  const queryClient = useQueryClient();
  const [state, setState] = useState<TranslatorState>(IDLE);
  const controller = useRef<AbortController | null>(null);

  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setState(IDLE);
  }, []);

  useEffect(() => () => controller.current?.abort(), []);

  const apiKey = useCallback(async (): Promise<string | undefined> => {
    if (credentials === 'session') return undefined;
    try {
      return (await queryClient.fetchQuery(publicConfigQuery())).publicApiKey;
    } catch (err) {
      console.warn('Public configuration unavailable; translating with the session only.', err);
      return undefined;
    }
  }, [credentials, queryClient]);

  const run = useCallback(
    async (req: TranslateInput) => {
      controller.current?.abort();
      const ac = new AbortController();
      controller.current = ac;
      setState({ ...IDLE, phase: 'translating' });
      const mine = () => controller.current === ac;
      try {
        const result = await translate(
          { ...req, explain: true },
          {
            apiKey: await apiKey(),
            signal: ac.signal,
            onEvent: (event) => {
              if (!mine()) return;
              if (event.type === 'status') setState((s) => ({ ...s, status: event.message }));
              if (event.type === 'translation_chunk') setState((s) => ({ ...s, phase: 'streaming', output: s.output + (event.content ?? '') }));
            },
          },
        );
        if (mine()) setState((s) => ({ ...s, ...completed(result, req.text) }));
      } catch (err) {
        if (!mine() || ac.signal.aborted) return;
        setState((s) => ({ ...s, ...failed(err) }));
      } finally {
        if (mine()) controller.current = null;
      }
    },
    [apiKey],
  );

  const busy = state.phase === 'translating' || state.phase === 'streaming';
  return { state, busy, translate: run, reset };
}
