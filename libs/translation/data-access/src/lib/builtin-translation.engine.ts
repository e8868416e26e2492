import { checkGlossary, exactExample, type EngineEvent, type TranslateRequest, type TranslationEnginePort } from '@gaia/translation/llm';

/**
 * The built-in engine (`@gaia/engine`) behind the common engine port. Token accounting: `input_tokens`
 * is the number of engine tokens (`tokenize` of `@gaia/engine`: words and punctuation marks) of the source text and
 * `output_tokens` that of the final translation — the engine has no API usage fields.
 */
export class BuiltinTranslationEngine implements TranslationEnginePort {
  readonly kind = 'builtin' as const;

  constructor(private readonly defaultK = 5) {}

  async *translate(request: TranslateRequest): AsyncGenerator<EngineEvent> {
    const { agent, text, direction } = request;
    // an owner's correction of this very text (ignoring case and punctuation) is the answer
    const corrected = request.feedback ? exactExample(text, request.feedback.examples) : null;
    if (corrected) {
      yield { type: 'translation_chunk', content: corrected.target };
      yield {
        type: 'translation_complete',
        final_translation: corrected.target,
        response_time: 0,
        source_text: text,
        confidence: 1,
        untranslated: [],
        provenance: { examples: [{ id: corrected.id, score: 1, source: corrected.source, target: corrected.target }], lexicon: [], strategy: 'correction' },
        applied_terms: checkGlossary(corrected.target, request.feedback?.glossary ?? []).applied,
        usage: { input_tokens: agent.knowledge.countTokens(text), output_tokens: agent.knowledge.countTokens(corrected.target) },
        engine: 'builtin',
      };
      return;
    }
    for await (const event of agent.knowledge.translate(text, direction, request.k ?? this.defaultK, request.feedback, { explain: request.explain })) {
      if (request.signal?.aborted) return;
      if (event.type === 'translation_complete') {
        yield {
          ...event,
          usage: { input_tokens: agent.knowledge.countTokens(text), output_tokens: agent.knowledge.countTokens(event.final_translation) },
          engine: 'builtin',
        };
        return;
      }
      yield event;
    }
  }
}
