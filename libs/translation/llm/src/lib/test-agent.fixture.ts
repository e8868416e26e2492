import type { EngineTranslationEvent } from '@gaia/contracts';
import { LlmClient } from './llm-client';
import { loadLlmConfig, type LlmConfig } from './llm.config';
import { LlmTranslationEngine } from './llm-translation.engine';
import { AgentKnowledge, Direction, EngineEvent, LoadedAgent } from './translation-engine.port';

/**
 * A small in-memory agent (pure data, no I/O) for the engine's unit tests: fixed examples, lexicon and
 * built-in drafts so prompts can be asserted exactly. Integration tests use real `@gaia/engine` agents.
 */
export function fixtureAgent(overrides: Partial<LoadedAgent> = {}): LoadedAgent & { calls: { retrieve: Direction[] } } {
  const calls = { retrieve: [] as Direction[] };
  const knowledge: AgentKnowledge = {
    retrieve: async (_text, direction, k) => {
      calls.retrieve.push(direction);
      return [
        { id: 'p1', source: 'mba’éichapa reiko', target: '¿cómo estás?', score: 0.9 },
        { id: 'p2', source: 'che róga', target: 'mi casa', score: 0.7 },
      ].slice(0, k);
    },
    lexicon: (text) => (text.includes('róga') ? [{ term: 'róga', translations: ['casa', 'hogar'] }] : []),
    draft: () => ({ translation: 'mi casa grande', candidates: ['mi casa grande', 'casa grande mía'], confidence: 0.6 }),
    async *translate(text): AsyncIterable<EngineTranslationEvent> {
      yield { type: 'status', message: 'builtin: retrieving' };
      yield { type: 'translation_chunk', content: 'mi casa ' };
      yield { type: 'translation_chunk', content: 'grande' };
      yield {
        type: 'translation_complete',
        final_translation: 'mi casa grande',
        response_time: 0.01,
        source_text: text,
        confidence: 0.6,
        untranslated: [],
        provenance: { strategy: 'fixture' },
      };
    },
    countTokens: (text) => text.split(/\s+/).filter(Boolean).length,
  };
  return {
    id: 'agent-1',
    srcLang: 'guarani',
    tgtLang: 'spanish',
    engine: 'llm',
    ownerNotes: 'Use formal register.',
    customPrompt: 'Guaraní to Spanish agent',
    learnedSummary: 'Guaraní is agglutinative; possessive che- means "my".',
    knowledge,
    approxBytes: 1000,
    calls,
    ...overrides,
  };
}

/** Every event of a translation, in order. */
export async function collect(events: AsyncIterable<EngineEvent>): Promise<EngineEvent[]> {
  const out: EngineEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/**
 * An LLM engine on the OpenAI wire double at `baseUrl`: model `test-chat`, `candidates` phase-1 answers, 5 s per call;
 * retries do not wait (each wait is handed to `onSleep`) and have no jitter.
 */
export function llmEngineOn(
  baseUrl: string,
  candidates: number,
  onSleep: (ms: number) => void = () => undefined,
): { engine: LlmTranslationEngine; config: LlmConfig } {
  const config = loadLlmConfig({
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: baseUrl,
    OPENAI_CHAT_MODEL: 'test-chat',
    OPENAI_CANDIDATES: String(candidates),
    OPENAI_TIMEOUT_MS: '5000',
  })!;
  return { engine: new LlmTranslationEngine(new LlmClient(config, { sleep: async (ms) => void onSleep(ms), random: () => 0 })), config };
}
