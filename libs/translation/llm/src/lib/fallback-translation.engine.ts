import type { EngineKind } from '@gaia/contracts';
import { isLlmUnavailable } from './llm.errors';
import { addUsage } from './token-usage';
import { EngineEvent, TranslateRequest, TranslationEnginePort } from './translation-engine.port';

/**
 * Runs the primary engine (LLM) and, when it signals `LlmUnavailableError`, reports it in a `status`
 * event and finishes the request with the fallback engine (built-in). The tokens the primary already
 * spent are added to the final usage; `engine` says who produced the final text and `fallback_reason`
 * why. Chunks the primary streamed before failing are superseded by the fallback's `translation_complete`.
 */
export class FallbackTranslationEngine implements TranslationEnginePort {
  readonly kind: EngineKind;

  constructor(
    private readonly primary: TranslationEnginePort,
    private readonly fallback: TranslationEnginePort,
  ) {
    this.kind = primary.kind;
  }

  async *translate(request: TranslateRequest): AsyncGenerator<EngineEvent> {
    let failure;
    try {
      yield* this.primary.translate(request);
      return;
    } catch (err) {
      if (!isLlmUnavailable(err)) throw err;
      failure = err;
    }
    yield {
      type: 'status',
      message: `LLM engine unavailable (${failure.reason.replace(/_/g, ' ')}); falling back to the built-in engine.`,
    };
    for await (const event of this.fallback.translate(request)) {
      if (event.type === 'translation_complete') {
        yield { ...event, usage: addUsage(failure.usage, event.usage), engine: this.fallback.kind, fallback_reason: failure.reason };
      } else {
        yield event;
      }
    }
  }
}
