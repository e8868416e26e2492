import {
  HybridIndex,
  Translator,
  deserializeModel,
  lookupLexicon,
  modelByteSize,
  tokenize,
  summarizeCoreMemory,
  type AgentModel,
  type Direction,
  type TranslateOptions,
  type RetrievalHit,
} from '@gaia/engine';
import type { AgentKnowledge, LexiconEntry, RequestFeedback, RetrievedExample } from '@gaia/translation/llm';
import type { AgentArtifacts } from './agent-artifacts.port';
import type { RetrievalExamplesPort } from './retrieval-examples.port';

/** The artifacts-derived part of a loaded agent (what the LRU holds). */
export interface AgentBrain {
  knowledge: AgentKnowledge;
  learnedSummary: string;
  approxBytes: number;
  pairCount: number;
}

/** Nearest examples asked per translation when they come from the retrieval service. */
const REMOTE_EXAMPLES = 8;
/** Examples fetched by `retrieve` kept for the `draft` of the same text that follows it (LLM engine). */
const REMEMBERED_EXAMPLES = 64;

/** Where the examples of an agent come from: its own index (embedded) or the retrieval service. */
export type ExampleSource = { kind: 'embedded' } | { kind: 'remote'; agentId: string; port: RetrievalExamplesPort };

/**
 * Builds the engines' view of an agent from `@gaia/engine` artifacts; its size for the LRU is what the loaded
 * structures hold. With remote examples only the core memory (model) is loaded — the index stays with the
 * retrieval service. Neither the model nor the index keeps a view into the artifact buffer (each part they decode late
 * keeps a copy of its own stored sections), so the buffer is released.
 */
export function buildAgentBrain(
  artifacts: AgentArtifacts,
  langs: { srcLang: string; tgtLang: string },
  k = 5,
  examples: ExampleSource = { kind: 'embedded' },
): AgentBrain {
  if (examples.kind === 'remote') {
    const model = deserializeModel(artifacts.model);
    return brainFrom(model, new HybridIndex(), langs, k, modelByteSize(model), examples);
  }
  const model = deserializeModel(artifacts.model);
  const index = HybridIndex.deserialize(artifacts.index);
  return brainFrom(model, index, langs, k, modelByteSize(model) + index.byteSize);
}

/**
 * The owner's feedback (oriented in the request's direction) as the engine's options, which are oriented like the
 * agent's pairs: glossary terms to force (`glossary`) and corrections as caller-supplied examples (`extraExamples`:
 * an identical input answers the correction exactly, similar ones use it as an example).
 */
export function engineFeedback(feedback: RequestFeedback | undefined, direction: Direction): Pick<TranslateOptions, 'glossary' | 'extraExamples'> {
  if (!feedback || (feedback.glossary.length === 0 && feedback.examples.length === 0)) return {};
  const forward = direction === 'forward';
  return {
    glossary: feedback.glossary.map((g) =>
      forward
        ? { source: g.term, target: g.translation, caseSensitive: g.caseSensitive }
        : { source: g.translation, target: g.term, caseSensitive: g.caseSensitive },
    ),
    extraExamples: feedback.examples.map((e) =>
      forward ? { id: e.id, source: e.source, target: e.target } : { id: e.id, source: e.target, target: e.source },
    ),
  };
}

export function brainFrom(
  model: AgentModel,
  index: HybridIndex,
  langs: { srcLang: string; tgtLang: string },
  k: number,
  approxBytes: number,
  examples: ExampleSource = { kind: 'embedded' },
): AgentBrain {
  const translator = new Translator(model, index, { k });
  const side = (direction: Direction): 'source' | 'target' => (direction === 'reverse' ? 'target' : 'source');
  const remembered = new Map<string, RetrievalHit[]>();
  /** Remote examples of a text (undefined: the translator searches its own index). */
  const remote = async (text: string, direction: Direction, n: number): Promise<RetrievalHit[] | undefined> => {
    if (examples.kind !== 'remote') return undefined;
    const hits = await examples.port.search(examples.agentId, text, side(direction), n);
    remembered.set(`${direction}\u0000${text}`, hits);
    if (remembered.size > REMEMBERED_EXAMPLES) remembered.delete(remembered.keys().next().value as string);
    return hits;
  };
  const knowledge: AgentKnowledge = {
    async retrieve(text: string, direction: Direction, n: number): Promise<RetrievedExample[]> {
      const reverse = direction === 'reverse';
      const hits = (await remote(text, direction, n)) ?? index.search(text, n, { side: side(direction) });
      return hits.map((h) => ({
        id: h.id,
        score: h.score,
        // oriented in the request's direction
        source: reverse ? h.target : h.source,
        target: reverse ? h.source : h.target,
      }));
    },
    lexicon(text: string, direction: Direction): LexiconEntry[] {
      const byTerm = new Map<string, string[]>();
      for (const use of lookupLexicon(model, text, direction)) {
        const list = byTerm.get(use.source) ?? [];
        if (!list.includes(use.target)) list.push(use.target);
        byTerm.set(use.source, list);
      }
      return [...byTerm].map(([term, translations]) => ({ term, translations }));
    },
    draft(text: string, direction: Direction, n: number, feedback?: RequestFeedback) {
      const r = translator.translateText(text, {
        direction,
        k: n,
        examples: examples.kind === 'remote' ? (remembered.get(`${direction}\u0000${text}`) ?? []) : undefined,
        ...engineFeedback(feedback, direction),
      });
      return { translation: r.translation, confidence: r.confidence, candidates: r.candidates.map((c) => c.text) };
    },
    async *translate(text: string, direction: Direction, n: number, feedback?: RequestFeedback, opts?: { explain?: boolean }) {
      for await (const event of translator.translate(text, {
        direction,
        k: n,
        examples: await remote(text, direction, REMOTE_EXAMPLES),
        ...engineFeedback(feedback, direction),
        explain: opts?.explain,
      })) {
        if (event.type !== 'translation_complete') yield event;
        // the wire's applied terms: the term as the input writes it and the translation forced for it; the examples
        // of the provenance oriented like the request (the engine keeps the agent's orientation)
        else
          yield {
            ...event,
            applied_terms: event.applied_terms.map((t) => ({ term: text.slice(t.start, t.end), translation: direction === 'forward' ? t.target : t.source })),
            provenance:
              direction === 'forward'
                ? event.provenance
                : { ...event.provenance, examples: event.provenance.examples.map((e) => ({ ...e, source: e.target, target: e.source })) },
          };
      }
    },
    countTokens(text: string): number {
      return tokenize(text).length;
    },
  };
  return {
    knowledge,
    learnedSummary: summarizeCoreMemory(model, { srcLang: langs.srcLang, tgtLang: langs.tgtLang }),
    approxBytes,
    pairCount: index.size,
  };
}
