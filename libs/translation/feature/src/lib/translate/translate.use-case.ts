import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { TranslateRpcRequest, TranslationEventDto } from '@gaia/contracts';
import { CLOCK, DomainError, checkTranslationInput, systemClock, type Clock } from '@gaia/shared/kernel';
import { METRICS, type GaiaMetrics } from '@gaia/shared/observability';
import {
  AGENT_DIRECTORY,
  AGENT_FEEDBACK,
  AGENT_LOADER,
  AgentArtifactsMissingError,
  USAGE_RECORDER,
  type AgentDirectoryPort,
  type AgentFeedbackPort,
  type AgentLoader,
  type UsageRecorder,
} from '@gaia/translation/data-access';
import { BUILTIN_ENGINE, LLM_ENGINE, type EngineEvent, type LoadedAgent, type RequestFeedback, type TranslationEnginePort } from '@gaia/translation/llm';
import { resolveDirection } from './translation-request.rules';
import { clampConfidence, toExplanation } from './explanation';

interface Prepared {
  request: TranslateRpcRequest;
  text: string;
  words: number;
  agent: LoadedAgent;
  direction: 'forward' | 'reverse';
  receivedAt: number;
  wasWarm: boolean;
  /** The owner's corrections and glossary terms for this text (issue 14). */
  feedback?: RequestFeedback;
}

/**
 * Translate one text with an agent. `start` applies the rules (limits, agent exists, languages match,
 * agent built) and loads the agent — any violation is a `DomainError` before the first event — then
 * returns the event stream: status, translation_chunk…, translation_complete (or error).
 *
 * Engine per agent: `llm` only when the LLM engine is configured (else the built-in one, said in a
 * status event); the LLM engine falls back to the built-in one by itself on endpoint failures.
 * Usage: one `usage.recorded.v1` per request id, committed before the stream ends.
 */
@Injectable()
export class TranslateUseCase {
  private readonly logger = new Logger('Translation');

  constructor(
    @Inject(AGENT_DIRECTORY) private readonly directory: AgentDirectoryPort,
    @Inject(AGENT_LOADER) private readonly loader: AgentLoader,
    @Inject(BUILTIN_ENGINE) private readonly builtin: TranslationEnginePort,
    @Inject(LLM_ENGINE) private readonly llm: TranslationEnginePort | null,
    @Inject(USAGE_RECORDER) private readonly usage: UsageRecorder,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
    @Optional() @Inject(METRICS) private readonly metrics: GaiaMetrics | null = null,
    @Optional() @Inject(AGENT_FEEDBACK) private readonly feedback: AgentFeedbackPort | null = null,
  ) {
    metrics?.agentCache(() => loader.stats());
  }

  async start(request: TranslateRpcRequest): Promise<AsyncIterable<TranslationEventDto>> {
    const receivedAt = performance.now();
    const { text, words } = checkTranslationInput(request.text);
    const profile = await this.directory.find(request.model_id, request.agent);
    if (!profile) {
      this.loader.invalidate(request.model_id); // deleted: free its memory now
      throw DomainError.notFound('Model not found.', 'agent_not_found');
    }
    const direction = resolveDirection(profile, request.src_lang, request.tgt_lang);
    if (!profile.artifactsVersion) {
      throw DomainError.conflict('This agent has no trained data yet. Try again when document processing completes.', 'agent_not_ready');
    }
    const wasWarm = this.loader.isWarm(profile.id);
    let agent: LoadedAgent;
    try {
      agent = await this.loader.load(profile);
    } catch (e) {
      if (e instanceof AgentArtifactsMissingError) {
        throw DomainError.conflict('This agent has no trained data yet. Try again when document processing completes.', 'agent_not_ready');
      }
      this.logger.error(`loading agent ${profile.id} failed: ${(e as Error).message}`);
      throw new DomainError('agent_unavailable', 'The agent could not be loaded. Please try again.', 503);
    }
    const feedback = await this.feedback?.forRequest(profile.id, profile.feedbackVersion ?? 0, text, direction);
    return this.run({ request, text, words, agent, direction, receivedAt, wasWarm, feedback });
  }

  private async *run(p: Prepared): AsyncGenerator<TranslationEventDto> {
    const { agent, request } = p;
    // final_only: the chunks are joined into one, given just before translation_complete; status events are left out
    const finalOnly = request.final_only === true;
    if (!p.wasWarm && !finalOnly) yield { type: 'status', message: 'Agent loaded.' };
    let engine = this.builtin;
    if (agent.engine === 'llm') {
      if (this.llm) engine = this.llm;
      else if (!finalOnly) yield { type: 'status', message: 'The LLM engine is not configured; using the built-in engine.' };
    }
    const from = p.direction === 'forward' ? agent.srcLang : agent.tgtLang;
    const to = p.direction === 'forward' ? agent.tgtLang : agent.srcLang;
    let event: EngineEvent | undefined;
    let joined = '';
    // Under way from here: usage records completing meanwhile may wait for this one's (one write for several).
    const usage = this.usage.begin();
    try {
      for await (event of engine.translate({ text: p.text, direction: p.direction, agent, feedback: p.feedback, explain: request.explain })) {
        if (finalOnly && event.type === 'translation_chunk') {
          joined += event.content;
        } else if (event.type === 'status') {
          if (!finalOnly) yield event;
        } else if (event.type === 'translation_chunk') {
          yield event;
        } else if (event.type === 'error') {
          this.metrics?.countTranslation(engine.kind, 'error');
          yield { type: 'error', message: event.message };
          return;
        } else {
          const latencyMs = performance.now() - p.receivedAt;
          this.metrics?.countTranslation(event.engine, event.fallback_reason ? 'fallback' : 'success');
          // The usage write (outbox, one transaction) starts now and overlaps the delivery of the final
          // event; the stream ends only once it is committed (a consumer that stops early still gets it
          // written: `finally` runs on return()).
          const recording = usage
            .record({
              requestId: request.requestId,
              keyId: request.caller.keyId,
              userId: request.caller.userId,
              agentId: agent.id,
              sourceWords: p.words,
              inputTokens: Math.round(event.usage.input_tokens),
              outputTokens: Math.round(event.usage.output_tokens),
              engine: event.engine,
              fallbackReason: event.fallback_reason ?? null,
              latencyMs,
              occurredAt: this.clock.now().toISOString(),
            })
            .then(
              () => null,
              (e: unknown) => e,
            );
          try {
            if (joined) yield { type: 'translation_chunk', content: joined };
            yield {
              type: 'translation_complete',
              final_translation: event.final_translation,
              response_time: latencyMs / 1000,
              source_text: p.text,
              source_language: from,
              target_language: to,
              confidence: clampConfidence(event.confidence),
              untranslated: event.untranslated ?? [],
              applied_terms: event.applied_terms ?? [],
              engine: event.engine,
              ...(request.explain ? { explanation: toExplanation(event.provenance, event.applied_terms) } : {}),
            };
          } finally {
            const failed = await recording;
            if (failed) this.logger.error(`usage of request ${request.requestId} (agent ${agent.id}) not recorded: ${(failed as Error)?.message ?? failed}`);
          }
          return;
        }
      }
      this.logger.error(`engine ${engine.kind} ended without a result for agent ${agent.id}`);
      this.metrics?.countTranslation(engine.kind, 'error');
      yield { type: 'error', message: 'Translation failed. Please try again.' };
    } catch (e) {
      this.logger.error(`translation with agent ${agent.id} failed: ${(e as Error)?.stack ?? e}`);
      this.metrics?.countTranslation(engine.kind, 'error');
      yield { type: 'error', message: 'Translation failed. Please try again.' };
    } finally {
      usage.cancel(); // no record (failed, cancelled): nobody waits for it any more
    }
  }
}
