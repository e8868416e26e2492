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
} from '@gaia/engine';
import type { AgentKnowledge, LexiconEntry, RetrievedExample } from '@gaia/translation/llm';
import type { AgentArtifacts } from './agent-artifacts.port';

/** The artifacts-derived part of a loaded agent (what the LRU holds). */
export interface AgentBrain {
  knowledge: AgentKnowledge;
  learnedSummary: string;
  approxBytes: number;
  pairCount: number;
}

/** Builds the engines' view of an agent from `@gaia/engine` artifacts; its size for the LRU is what the loaded structures hold. */
export function buildAgentBrain(artifacts: AgentArtifacts, langs: { srcLang: string; tgtLang: string }, k = 5): AgentBrain {
  const model = deserializeModel(artifacts.model);
  const index = HybridIndex.deserialize(artifacts.index);
  return brainFrom(model, index, langs, k, modelByteSize(model) + index.byteSize);
}

export function brainFrom(model: AgentModel, index: HybridIndex, langs: { srcLang: string; tgtLang: string }, k: number, approxBytes: number): AgentBrain {
  const translator = new Translator(model, index, { k });
  const knowledge: AgentKnowledge = {
    async retrieve(text: string, direction: Direction, n: number): Promise<RetrievedExample[]> {
      const reverse = direction === 'reverse';
      return index.search(text, n, { side: reverse ? 'target' : 'source' }).map((h) => ({
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
    draft(text: string, direction: Direction, n: number) {
      const r = translator.translateText(text, { direction, k: n });
      return { translation: r.translation, confidence: r.confidence, candidates: r.candidates.map((c) => c.text) };
    },
    translate(text: string, direction: Direction, n: number) {
      return translator.translate(text, { direction, k: n });
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
