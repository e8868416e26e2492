/**
 * Two-phase translation, one line at a time (translation-job.ts):
 *  retrieve  the nearest examples of the agent's memory, with the caller's extra examples (extra-examples.ts);
 *  phase 1   K candidates (candidates.ts): phrase-based beam decoding (decoder.ts, unknown words: unknown-words.ts),
 *            translation-memory adaptation of the nearest examples (memory-adaptation.ts), the nearest examples;
 *  phase 2   every candidate scored and the answer chosen by minimum Bayes risk with chrF as the utility
 *            (validate-refine.ts); provenance (provenance.ts) and confidence (calibrated: confidence-calibration.ts).
 * Glossary terms (glossary.ts) constrain the decoder and every selectable answer. Tuned numbers live in tuning.ts.
 */
import { draftCandidates } from './candidates';
import { confidenceFeatures, rawConfidence as confidenceOf } from './confidence';
import { calibrateConfidence } from './confidence-calibration';
import { PhraseDecoder } from './decoder';
import { exactExtraExample, mergeExtraExamples } from './extra-examples';
import { appliedTerms, containsForced, findForcedSpans } from './glossary';
import { HybridIndex } from './hybrid-index';
import { pieceInput } from './subword';
import type { AgentModel } from './model';
import { basicProvenance, explainProvenance } from './provenance';
import { emptyResult, exactExampleResult, joinLines, LineJob, LineWork, Plan, planJobs } from './translation-job';
import type { TranslationPhase } from '@gaia/contracts';
import { normalizeToken, tokenize } from './tokenize';
import { DecoderWeights, DEFAULT_DECODER_WEIGHTS, DEFAULT_SCORE_WEIGHTS, ScoreWeights, TRANSLATOR_DEFAULTS } from './tuning';
import type { AppliedTerm, Candidate, ConfidenceCalibration, Direction, RetrievalHit, TranslateOptions, TranslateResult, TranslationEvent } from './types';
import { UnknownWords } from './unknown-words';
import { CandidateScorer } from './validate-refine';
import { dirIndex } from './vocabulary';

export interface TranslatorOptions {
  k?: number;
  beam?: number;
  /** number of memory examples retrieved */
  examples?: number;
  weights?: Partial<DecoderWeights>;
  /** decoder hypotheses entering phase 2 */
  nbest?: number;
  /** softmax temperature turning phase-2 scores into MBR weights */
  mbrTemperature?: number;
  /** weights of the phase-2 features */
  scoreWeights?: Partial<ScoreWeights>;
  /** nearest examples used as candidates as they are */
  rawExamples?: number;
  /** preferred output length relative to the length ratio learned from the corpus (chrF favours recall) */
  lengthTarget?: number;
  /** same, for the reverse direction (into the agent's source language) */
  lengthTargetReverse?: number;
  /** unknown words copied into reverse-direction output: all of them, or only names and numbers (default) */
  reverseCopy?: 'all' | 'names';
  /** stem back-off: minimum shared prefix as a fraction of the unknown word's length, per direction */
  stemMinRatio?: [number, number];
  /** weight of the model score beside the MBR utility when the final candidate is chosen */
  mbrScoreWeight?: number;
  /** a retrieved example is offered as it is only when it shares at least this share of the input's tokens
   *  (default 1: only an exact match; near duplicates are repaired by memory adaptation instead) */
  nearDuplicate?: number;
  /** maps raw confidence to expected quality (default: the model's calibration for the request's direction) */
  calibration?: ConfidenceCalibration;
}

/** A phase the streamed status events mark: the contract's (`translationPhaseSchema` of `@gaia/contracts`). */
export type { TranslationPhase };

/** The engine's events: TranslationEvent with the phase on status events and the glossary terms on completion. */
export type EngineTranslationEvent =
  | (Extract<TranslationEvent, { type: 'status' }> & { phase: TranslationPhase })
  | Extract<TranslationEvent, { type: 'translation_chunk' | 'error' }>
  | (Extract<TranslationEvent, { type: 'translation_complete' }> & { raw_confidence: number; applied_terms: AppliedTerm[] });

export class Translator {
  /** unknown input words: back-offs, what may be copied, untranslated spans */
  readonly unknownWords: UnknownWords;
  private readonly decoder: PhraseDecoder;
  private readonly scorer: CandidateScorer;
  private readonly k: number;
  private readonly nExamples: number;
  private readonly nbest: number;
  private readonly rawExamples: number;
  private readonly calibration: ConfidenceCalibration | undefined;

  constructor(
    private readonly model: AgentModel,
    private readonly index: HybridIndex,
    opts?: TranslatorOptions,
  ) {
    const d = TRANSLATOR_DEFAULTS;
    this.k = opts?.k ?? d.k;
    this.nExamples = opts?.examples ?? d.examples;
    this.nbest = opts?.nbest ?? d.nbest;
    this.rawExamples = opts?.rawExamples ?? d.rawExamples;
    this.calibration = opts?.calibration;
    const lengthTargets: [number, number] = [opts?.lengthTarget ?? d.lengthTarget, opts?.lengthTargetReverse ?? d.lengthTargetReverse];
    this.unknownWords = new UnknownWords(model, opts?.stemMinRatio ?? [...d.stemMinRatio]);
    this.decoder = new PhraseDecoder(model, this.unknownWords, {
      weights: { ...DEFAULT_DECODER_WEIGHTS, ...(opts?.weights ?? {}) },
      beam: opts?.beam ?? d.beam,
      lengthTargets,
      reverseCopy: opts?.reverseCopy ?? d.reverseCopy,
    });
    this.scorer = new CandidateScorer(model, this.unknownWords, {
      weights: { ...DEFAULT_SCORE_WEIGHTS, ...(opts?.scoreWeights ?? {}) },
      lengthTargets,
      mbrTemperature: opts?.mbrTemperature ?? d.mbrTemperature,
      mbrScoreWeight: opts?.mbrScoreWeight ?? d.mbrScoreWeight,
      nearDuplicate: opts?.nearDuplicate ?? d.nearDuplicate,
    });
  }

  /* ------------------------------------------------------------ public API */

  retrieve(text: string, direction: Direction = 'forward', k = this.nExamples): RetrievalHit[] {
    return this.index.size ? this.index.search(text, k, { side: direction === 'reverse' ? 'target' : 'source' }) : [];
  }

  /** Phases 1 and 2 without the final choice: the candidate drafts with scores and MBR utilities (for the LLM engine). */
  candidates(text: string, opts?: TranslateOptions): { candidates: Candidate[]; hits: RetrievalHit[] } {
    const job = this.startLine(text, opts);
    this.retrieveExamples(job);
    this.generate(job);
    this.refine(job);
    return { candidates: job.candidates, hits: job.hits };
  }

  translateText(text: string, opts?: TranslateOptions): TranslateResult {
    const plan = this.plan(text, opts);
    for (const job of planJobs(plan)) {
      this.retrieveExamples(job);
      this.generate(job);
      this.refine(job);
    }
    return this.finish(plan);
  }

  /**
   * Streams the translation: a status event as each phase starts (retrieve → candidates → refine), the translation in
   * word chunks, then `translation_complete` (or `error`, also when `signal` aborts).
   */
  async *translate(text: string, opts?: TranslateOptions & { signal?: AbortSignal }): AsyncIterable<EngineTranslationEvent> {
    const t0 = Date.now();
    const checkAborted = (): void => {
      if (opts?.signal?.aborted) throw new Error('Translation aborted');
    };
    const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));
    try {
      checkAborted();
      const plan = this.plan(text, opts);
      const jobs = planJobs(plan);
      yield { type: 'status', phase: 'retrieve', message: 'Retrieving similar examples from memory' };
      await nextTurn();
      checkAborted();
      for (const job of jobs) this.retrieveExamples(job);
      yield { type: 'status', phase: 'candidates', message: `Generating ${opts?.k ?? this.k} candidate translations` };
      await nextTurn();
      checkAborted();
      for (const job of jobs) this.generate(job);
      yield { type: 'status', phase: 'refine', message: 'Validating and refining candidates' };
      await nextTurn();
      checkAborted();
      for (const job of jobs) this.refine(job);
      const res = this.finish(plan);
      const words = res.translation.split(/(\s+)/).filter((x) => x.length);
      let chunk = '';
      for (const w of words) {
        chunk += w;
        if (/\S/.test(w)) {
          checkAborted();
          yield { type: 'translation_chunk', content: chunk };
          chunk = '';
        }
      }
      if (chunk) yield { type: 'translation_chunk', content: chunk };
      yield {
        type: 'translation_complete',
        final_translation: res.translation,
        response_time: (Date.now() - t0) / 1000,
        source_text: text,
        confidence: res.confidence,
        raw_confidence: res.rawConfidence,
        applied_terms: res.appliedTerms,
        untranslated: res.untranslated,
        provenance: res.provenance,
      };
    } catch (e) {
      yield { type: 'error', message: e instanceof Error ? e.message : String(e) };
    }
  }

  /* ------------------------------------------------------------ the phases of one line */

  /** Splits the request into lines; lines answered without translating (blank, or an exact extra example) are done. */
  private plan(text: string, opts: TranslateOptions | undefined): Plan {
    const dir = dirIndex(opts?.direction);
    const exact = exactExtraExample(text, opts?.extraExamples, dir);
    if (exact) return { text, lines: [text], work: [{ result: exactExampleResult(text, exact, dir, opts) }] };
    const lines = text.split(/\r?\n/);
    if (lines.length === 1) return { text, lines, work: [text.trim() ? { job: this.startLine(text, opts) } : { result: emptyResult() }] };
    const work = lines.map((line): LineWork | null => {
      if (!line.trim()) return null;
      const ex = exactExtraExample(line, opts?.extraExamples, dir);
      return ex ? { result: exactExampleResult(line, ex, dir, opts) } : { job: this.startLine(line, opts) };
    });
    return { text, lines, work };
  }

  private startLine(text: string, opts: TranslateOptions | undefined): LineJob {
    const dir = dirIndex(opts?.direction);
    const surface = tokenize(text);
    const qTok = surface.map(normalizeToken);
    const forced = findForcedSpans(surface, opts?.glossary, dir);
    return {
      text,
      dir,
      opts,
      surface,
      qTok,
      forced,
      pieces: pieceInput(this.model, dir, { qTok, surface, forced }, (i) => this.unknownWords.nameSplit(surface, i, dir)),
      hits: [],
      extraIds: new Set(),
      drafts: [],
      candidates: [],
      origins: [],
      agreement: null,
    };
  }

  /** Retrieval: the nearest examples of the agent's memory (or the caller's), with the caller's extra examples. */
  private retrieveExamples(job: LineJob): void {
    const found = job.opts?.examples ? job.opts.examples.slice(0, this.nExamples) : this.retrieve(job.text, job.opts?.direction);
    const merged = mergeExtraExamples(found, job.opts?.extraExamples, job.qTok, job.dir, this.nExamples);
    job.hits = merged.hits;
    job.extraIds = merged.extraIds;
  }

  /** Phase 1: the drafts. */
  private generate(job: LineJob): void {
    job.drafts = draftCandidates(
      this.model,
      this.decoder,
      { k: job.opts?.k ?? this.k, nbest: this.nbest, rawExamples: this.rawExamples },
      { ...job, ...job.pieces },
    );
  }

  /** Phase 2: the drafts scored, with their MBR utilities. */
  private refine(job: LineJob): void {
    const { candidates, origins, agreement } = this.scorer.score(job.text, job.pieces.qTok, job.dir, job.forced, job.drafts);
    job.candidates = candidates;
    job.origins = origins;
    job.agreement = agreement;
  }

  /** The answer of a refined line, its provenance, untranslated spans and confidence. */
  private select(job: LineJob): TranslateResult {
    const { text, dir, candidates, forced, drafts } = job;
    const bi = this.scorer.select(candidates, drafts, forced);
    const best = candidates[bi];
    const applied = appliedTerms(
      text,
      job.surface,
      forced.filter((f) => containsForced(drafts[bi].tokens, f)),
    );
    const provenance = job.opts?.explain ? explainProvenance(this.model, job, bi, applied) : basicProvenance(job, bi);
    const { spans, share } = this.unknownWords.untranslatedSpans(text, dir);
    const rawConfidence = confidenceOf(confidenceFeatures(job.qTok, best, candidates, share, job.agreement ?? undefined));
    return {
      translation: best.text.replace(/\s*\n\s*/g, ' '),
      confidence: calibrateConfidence(rawConfidence, this.calibrationFor(job.opts)),
      rawConfidence,
      appliedTerms: applied,
      untranslated: spans,
      candidates,
      provenance,
    };
  }

  private finish(plan: Plan): TranslateResult {
    const parts = plan.work.map((w) => (w === null ? null : 'result' in w ? w.result : this.select(w.job)));
    return joinLines(plan, parts);
  }

  private calibrationFor(opts: TranslateOptions | undefined): ConfidenceCalibration | undefined {
    return opts?.calibration ?? this.calibration ?? this.model.calibration?.[opts?.direction ?? 'forward'];
  }
}
