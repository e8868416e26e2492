import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap, QualityScores } from '@gaia/contracts';
import { CLOCK, countWords, isDomainError, type Clock, type DomainError } from '@gaia/shared/kernel';
import { UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { JOB_QUEUE, OUTBOX, RPC_CLIENT, type JobContext, type JobQueue, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import {
  decodeAgentArtifacts,
  parseQualitySample,
  qualityModelKey,
  qualitySampleKey,
  scoreTranslations,
  type QualitySample,
} from '@gaia/retrieval/data-access';
import {
  AGENT_DIRECTORY,
  USAGE_RECORDER,
  buildAgentBrain,
  type AgentDirectoryPort,
  type TranslationAgentProfile,
  type UsageRecorder,
} from '@gaia/translation/data-access';
import { LLM_ENGINE, type LoadedAgent, type TranslationEnginePort } from '@gaia/translation/llm';

export const QUALITY_AB_JOB = 'translation.quality-ab';
export type QualityAbJob = { agentId: string; version: string };

/** Attempts of the A/B job (an unreachable endpoint is retried with backoff, then the A/B is left out). */
const QUALITY_AB_ATTEMPTS = 3;
/** HTTP status of a metering refusal (plan or rate limit reached). */
const QUOTA_REFUSED_STATUS = 429;

/** The metering request id of the A/B of one agent version: a retried or resumed job is authorized and recorded once. */
export const qualityAbRequestId = (agentId: string, version: string): string => `quality-ab:${agentId}:${version}`;

/**
 * The LLM A/B of a built agent version: the held-out pairs the build scored the built-in engine on (at most
 * QUALITY_AB_MAX_PAIRS, kept by the build with the model learned without them) are translated by the LLM engine over
 * that same held-out model (its retrieved examples and drafts never contain the held-out pairs), both engines are
 * scored on the pairs the LLM answered, and `translation.quality-ab-measured.v1` adds the comparison to the report.
 * Runs as a background job after the build; nothing happens without a configured LLM. The kept files are deleted.
 *
 * Metered like every translation path, to the agent's owner: the A/B is one `billing.authorize.v1` of the owner's
 * plan (channel `web`, request id `quality-ab:<agent>:<version>`, so a retried job counts once) before any LLM call,
 * and one usage record (every compared source's words and the LLM's tokens) through the usage recorder. An owner
 * whose plan is used up for the day gets no A/B (logged); units are given back when the LLM answered nothing.
 */
@Injectable()
export class QualityAbUseCase {
  private readonly logger = new Logger('QualityAb');

  constructor(
    @Inject(LLM_ENGINE) private readonly llm: TranslationEnginePort | null,
    @Inject(AGENT_DIRECTORY) private readonly directory: AgentDirectoryPort,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(OUTBOX) private readonly outbox: Outbox,
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(USAGE_RECORDER) private readonly usage: UsageRecorder,
  ) {}

  /** Event side, in the consumer's transaction: a measured version gets an A/B when an LLM is configured. */
  async measured(em: EntityManager, e: EventMap['retrieval.agent-quality-measured.v1']): Promise<void> {
    if (!e.quality.measured) return;
    if (!this.llm) {
      await this.discard(e.agentId, e.version);
      return;
    }
    const job: QualityAbJob = { agentId: e.agentId, version: e.version };
    await this.jobs.enqueue(em, QUALITY_AB_JOB, job, { dedupeKey: `${e.agentId}:${e.version}`, maxAttempts: QUALITY_AB_ATTEMPTS });
  }

  async run(job: QualityAbJob, ctx: JobContext): Promise<void> {
    const sampleKey = qualitySampleKey(job.agentId, job.version);
    const llm = this.llm;
    if (!llm || !(await this.storage.exists(sampleKey))) return; // done already (resumed job) or agent deleted
    const profile = await this.directory.find(job.agentId);
    if (!profile) return this.discard(job.agentId, job.version);
    const sample = parseQualitySample(await this.storage.get(sampleKey));
    const requestId = qualityAbRequestId(job.agentId, job.version);
    if (!profile.ownerId) {
      this.logger.warn(`agent ${job.agentId} ${job.version}: no owner to meter the A/B to; no A/B`);
      return this.discard(job.agentId, job.version);
    }
    const ownerId = profile.ownerId;
    const words = sample.pairs.reduce((n, p) => n + countWords(p.source), 0);
    try {
      await this.rpc.call('billing.authorize.v1', { requestId, keyId: null, userId: ownerId, channel: 'web', words });
    } catch (e) {
      if (!isDomainError(e) || (e as DomainError).status !== QUOTA_REFUSED_STATUS) throw e; // billing unreachable: the job retries
      this.logger.warn(`agent ${job.agentId} ${job.version}: the owner's plan refused the A/B (${(e as Error).message}); no A/B`);
      return this.discard(job.agentId, job.version);
    }
    try {
      await this.compare(job, ctx, { llm, ownerId, requestId, words, sample, profile });
    } catch (e) {
      // The last attempt failed after the authorization (a shutdown is no failure: the job resumes elsewhere):
      // the owner gets the unit back. A recorded usage keeps its unit (billing.release.v1 leaves it).
      if (ctx.attempt >= QUALITY_AB_ATTEMPTS && !ctx.signal.aborted) {
        this.logger.warn(`agent ${job.agentId} ${job.version}: the A/B failed on its last attempt (${(e as Error).message}); the owner's unit is given back`);
        await this.rpc
          .call('billing.release.v1', { requestId })
          .catch((err: unknown) => this.logger.warn(`release of ${requestId} failed: ${(err as Error).message}`));
      }
      throw e;
    }
    await this.discard(job.agentId, job.version);
  }

  /** The authorized part of the A/B: the LLM on the held-out pairs, the usage record and the comparison event. */
  private async compare(
    job: QualityAbJob,
    ctx: JobContext,
    m: { llm: TranslationEnginePort; ownerId: string; requestId: string; words: number; sample: QualitySample; profile: TranslationAgentProfile },
  ): Promise<void> {
    const { llm, ownerId, requestId, words, sample, profile } = m;
    const startedAt = performance.now();
    const brain = buildAgentBrain(decodeAgentArtifacts(await this.storage.get(qualityModelKey(job.agentId, job.version))), sample);
    const agent: LoadedAgent = {
      id: job.agentId,
      srcLang: sample.srcLang,
      tgtLang: sample.tgtLang,
      engine: 'llm',
      ownerNotes: profile.coreMemory,
      customPrompt: profile.customPrompt,
      learnedSummary: brain.learnedSummary,
      knowledge: brain.knowledge,
      approxBytes: brain.approxBytes,
    };
    const answered: { llm: string; builtin: string; target: string }[] = [];
    const tokens = { input: 0, output: 0 };
    for (const pair of sample.pairs) {
      if (ctx.signal.aborted) throw new Error('A/B aborted');
      for await (const event of llm.translate({ text: pair.source, direction: 'forward', agent, signal: ctx.signal })) {
        if (event.type !== 'translation_complete') continue;
        tokens.input += Math.round(event.usage.input_tokens);
        tokens.output += Math.round(event.usage.output_tokens);
        // a fallback answer is the built-in engine's, not the LLM's: that pair is left out of both sides
        if (event.engine === 'llm') answered.push({ llm: event.final_translation, builtin: pair.hypothesis, target: pair.target });
      }
      await ctx.heartbeat();
    }
    if (answered.length) {
      await this.usage.record({
        requestId,
        keyId: null,
        userId: ownerId,
        agentId: job.agentId,
        sourceWords: words,
        inputTokens: tokens.input,
        outputTokens: tokens.output,
        engine: 'llm',
        fallbackReason: null,
        latencyMs: performance.now() - startedAt,
        occurredAt: this.clock.now().toISOString(),
      });
      const score = (hyps: string[]): QualityScores =>
        scoreTranslations(
          hyps,
          answered.map((a) => a.target),
        );
      const ab = {
        builtin: score(answered.map((a) => a.builtin)),
        llm: score(answered.map((a) => a.llm)),
        pairs: answered.length,
        created_at: this.clock.now().toISOString(),
      };
      await this.uow.run((em) => this.outbox.add(em, 'translation.quality-ab-measured.v1', { agentId: job.agentId, version: job.version, ab }));
      this.logger.log(
        `agent ${job.agentId} ${job.version}: A/B on ${answered.length} held-out pairs, chrF built-in ${ab.builtin.chrf.toFixed(3)} vs LLM ${ab.llm.chrf.toFixed(3)}`,
      );
    } else {
      this.logger.warn(`agent ${job.agentId} ${job.version}: the LLM answered none of the ${sample.pairs.length} held-out pairs; no A/B`);
      await this.rpc.call('billing.release.v1', { requestId }); // nothing was compared: the owner gets the unit back
    }
  }

  private async discard(agentId: string, version: string): Promise<void> {
    await this.storage.delete(qualitySampleKey(agentId, version));
    await this.storage.delete(qualityModelKey(agentId, version));
  }
}
