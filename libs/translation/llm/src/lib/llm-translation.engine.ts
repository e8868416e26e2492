import { LlmClient } from './llm-client';
import { buildGlossaryRepairPrompt, checkGlossary, exactExample, NO_FEEDBACK, type FeedbackExample, type RequestFeedback } from './glossary';
import { LlmUnavailableError } from './llm.errors';
import { Candidate, PromptContext, buildCandidatePrompt, buildRefinePrompt, cleanTranslation } from './prompts';
import { TokenUsage, ZERO_USAGE, addUsage } from './token-usage';
import { EngineEvent, TranslateRequest, TranslationEnginePort, languagesOf } from './translation-engine.port';

export interface LlmEngineOptions {
  /** Retrieved example pairs put in the prompts. */
  examples?: number;
  /** Sampling temperature of phase 1 (`n` mode); phase 2 runs at `refineTemperature`. */
  temperature?: number;
  refineTemperature?: number;
  maxTokens?: number;
}

/**
 * The LLM engine. Phase 1 asks K candidates (one call with `n: K`, or K calls at rising temperatures in
 * `sample` mode) from a prompt holding the agent's core memory, the top retrieved example pairs and the
 * lexicon entries that match the input; the built-in engine's candidates join them as drafts. Phase 2
 * streams one validated, refined translation token by token as `translation_chunk` events.
 *
 * Failures end as `LlmUnavailableError` (with the tokens already spent): the fallback signal.
 */
export class LlmTranslationEngine implements TranslationEnginePort {
  readonly kind = 'llm' as const;
  private readonly options: Required<LlmEngineOptions>;

  constructor(
    private readonly client: LlmClient,
    options: LlmEngineOptions = {},
  ) {
    this.options = { examples: 8, temperature: 0.8, refineTemperature: 0.2, maxTokens: 400, ...options };
  }

  async *translate(request: TranslateRequest): AsyncGenerator<EngineEvent> {
    const started = performance.now();
    const { text, direction, agent } = request;
    const k = request.k ?? this.client.config.candidates;
    const { from, to } = languagesOf(agent, direction);
    const feedback = request.feedback ?? NO_FEEDBACK;
    const corrected = exactExample(text, feedback.examples);
    if (corrected) {
      yield* this.answerWithCorrection(text, corrected, feedback, started);
      return;
    }

    yield { type: 'status', phase: 'retrieve', message: 'Retrieving similar examples and core memory...' };
    const examples = await agent.knowledge.retrieve(text, direction, this.options.examples);
    const lexicon = agent.knowledge.lexicon(text, direction);
    const ctx: PromptContext = {
      from,
      to,
      text,
      learnedSummary: agent.learnedSummary,
      ownerNotes: agent.ownerNotes,
      customPrompt: agent.customPrompt,
      examples,
      lexicon,
      glossary: feedback.glossary,
      corrections: feedback.examples,
    };

    yield { type: 'status', phase: 'candidates', message: `Phase 1: generating ${k} candidate translations...` };
    let usage: TokenUsage = ZERO_USAGE;
    // The phase-1 call goes out first; the built-in drafts are computed (CPU) while it is in flight.
    const sampling = this.generateCandidates(ctx, k).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    await new Promise<void>((resolve) => setImmediate(resolve));
    let drafts: string[] = [];
    try {
      const draft = agent.knowledge.draft(text, direction, k, feedback);
      drafts = draft.candidates.length ? draft.candidates : [draft.translation];
    } catch {
      drafts = []; // drafts are optional evidence
    }
    const sampled = await sampling;
    if (!sampled.ok) {
      throw sampled.error instanceof LlmUnavailableError ? sampled.error : new LlmUnavailableError('bad_response', String(sampled.error));
    }
    usage = addUsage(usage, sampled.value.usage);
    const candidates = mergeCandidates(sampled.value.texts, drafts);
    if (request.signal?.aborted) return;

    yield { type: 'status', phase: 'refine', message: 'Phase 2: validating and refining the candidates...' };
    let raw = '';
    let phase2: TokenUsage = ZERO_USAGE;
    try {
      for await (const piece of this.client.stream({
        messages: buildRefinePrompt(ctx, candidates),
        temperature: this.options.refineTemperature,
        maxTokens: this.options.maxTokens,
      })) {
        if (piece.type === 'delta') {
          raw += piece.content;
          yield { type: 'translation_chunk', content: piece.content };
        } else {
          phase2 = piece.usage;
        }
        if (request.signal?.aborted) return;
      }
    } catch (err) {
      const e = err instanceof LlmUnavailableError ? err : new LlmUnavailableError('stream_interrupted', String(err));
      throw e.withUsage(addUsage(usage, e.usage));
    }
    usage = addUsage(usage, phase2);
    let final = cleanTranslation(raw, text.includes('\n'));
    if (!final) throw new LlmUnavailableError('bad_response', 'LLM returned an empty translation', usage);
    const repaired = await this.enforceGlossary(ctx, final, feedback);
    final = repaired.text;
    usage = addUsage(usage, repaired.usage);
    const normalizedFinal = normalize(final);
    const agreeing = candidates.filter((c) => normalize(c.text) === normalizedFinal).length;
    yield {
      type: 'translation_complete',
      final_translation: final,
      response_time: (performance.now() - started) / 1000,
      source_text: text,
      confidence: candidates.length ? Math.max(0.5, agreeing / candidates.length) : 0.5,
      // The LLM engine does not report untranslated spans.
      untranslated: [],
      provenance: {
        engine: 'llm',
        model: this.client.config.chatModel,
        // the retrieved pairs the prompt held (the answer's explanation lists them)
        examples: examples.map((e) => ({ id: e.id, source: e.source, target: e.target, score: e.score })),
        lexicon: lexicon.map((l) => l.term),
        candidates: candidates.map((c) => ({ text: c.text, origin: c.origin })),
        corrections: feedback.examples.map((e) => e.id),
      },
      applied_terms: checkGlossary(final, feedback.glossary).applied,
      usage,
      engine: 'llm',
    };
  }

  /** An owner's correction of this very text is the answer (no LLM call). */
  private async *answerWithCorrection(text: string, correction: FeedbackExample, feedback: RequestFeedback, started: number): AsyncGenerator<EngineEvent> {
    yield { type: 'translation_chunk', content: correction.target };
    yield {
      type: 'translation_complete',
      final_translation: correction.target,
      response_time: (performance.now() - started) / 1000,
      source_text: text,
      confidence: 1,
      untranslated: [],
      provenance: { engine: 'llm', strategy: 'correction', corrections: [correction.id] },
      applied_terms: checkGlossary(correction.target, feedback.glossary).applied,
      usage: ZERO_USAGE,
      engine: 'llm',
    };
  }

  /**
   * The glossary check: a translation missing a required term gets one repair request; the repair is kept when it
   * holds more required terms. A failed repair keeps the translation (the answer reports the terms it applied).
   */
  private async enforceGlossary(ctx: PromptContext, text: string, feedback: RequestFeedback): Promise<{ text: string; usage: TokenUsage }> {
    const { missing } = checkGlossary(text, feedback.glossary);
    if (missing.length === 0) return { text, usage: ZERO_USAGE };
    try {
      const res = await this.client.complete({
        messages: buildGlossaryRepairPrompt(ctx, text, missing),
        temperature: this.options.refineTemperature,
        maxTokens: this.options.maxTokens,
      });
      const repaired = cleanTranslation(res.choices[0] ?? '', ctx.text.includes('\n'));
      const better = repaired && checkGlossary(repaired, feedback.glossary).missing.length < missing.length;
      return { text: better ? repaired : text, usage: res.usage };
    } catch {
      return { text, usage: ZERO_USAGE };
    }
  }

  private async generateCandidates(ctx: PromptContext, k: number): Promise<{ texts: string[]; usage: TokenUsage }> {
    const messages = buildCandidatePrompt(ctx);
    if (this.client.config.candidateMode === 'n') {
      const res = await this.client.complete({ messages, n: k, temperature: this.options.temperature, maxTokens: this.options.maxTokens });
      return { texts: res.choices.map((c) => cleanTranslation(c, ctx.text.includes('\n'))), usage: res.usage };
    }
    // `sample` mode: K independent calls at spread temperatures (servers that ignore `n`).
    const temps = Array.from({ length: k }, (_, i) => (k === 1 ? this.options.temperature : 0.3 + (0.9 * i) / (k - 1)));
    const results = await Promise.allSettled(temps.map((temperature) => this.client.complete({ messages, temperature, maxTokens: this.options.maxTokens })));
    const ok = results.filter((r): r is PromiseFulfilledResult<Awaited<ReturnType<LlmClient['complete']>>> => r.status === 'fulfilled');
    if (ok.length === 0) throw (results[0] as PromiseRejectedResult).reason;
    return {
      texts: ok.flatMap((r) => r.value.choices.map((c) => cleanTranslation(c, ctx.text.includes('\n')))),
      usage: ok.reduce((u, r) => addUsage(u, r.value.usage), ZERO_USAGE),
    };
  }
}

function normalize(s: string): string {
  return s
    .toLowerCase()
    .replace(/[\p{P}\s]+/gu, ' ')
    .trim();
}

function mergeCandidates(sampled: string[], drafts: string[]): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const [texts, origin] of [
    [sampled, 'llm'],
    [drafts, 'builtin'],
  ] as const) {
    for (const t of texts) {
      const key = normalize(t);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      out.push({ text: t.trim(), origin });
    }
  }
  return out;
}
