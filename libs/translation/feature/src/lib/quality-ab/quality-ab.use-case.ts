import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap, QualityScores } from '@gaia/contracts';
import { CLOCK, type Clock } from '@gaia/shared/kernel';
import { UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { JOB_QUEUE, OUTBOX, type JobContext, type JobQueue, type Outbox } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { decodeAgentArtifacts, parseQualitySample, qualityModelKey, qualitySampleKey, scoreTranslations } from '@gaia/retrieval/data-access';
import { AGENT_DIRECTORY, buildAgentBrain, type AgentDirectoryPort } from '@gaia/translation/data-access';
import { LLM_ENGINE, type LoadedAgent, type TranslationEnginePort } from '@gaia/translation/llm';

export const QUALITY_AB_JOB = 'translation.quality-ab';
export type QualityAbJob = { agentId: string; version: string };

/** Attempts of the A/B job (an unreachable endpoint is retried with backoff, then the A/B is left out). */
const QUALITY_AB_ATTEMPTS = 3;

/**
 * The LLM A/B of a built agent version: the held-out pairs the build scored the built-in engine on (at most
 * QUALITY_AB_MAX_PAIRS, kept by the build with the model learned without them) are translated by the LLM engine over
 * that same held-out model (its retrieved examples and drafts never contain the held-out pairs), both engines are
 * scored on the pairs the LLM answered, and `translation.quality-ab-measured.v1` adds the comparison to the report.
 * Runs as a background job after the build; nothing happens without a configured LLM. The kept files are deleted.
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
    if (!this.llm || !(await this.storage.exists(sampleKey))) return; // done already (resumed job) or agent deleted
    const profile = await this.directory.find(job.agentId);
    if (!profile) return this.discard(job.agentId, job.version);
    const sample = parseQualitySample(await this.storage.get(sampleKey));
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
    for (const pair of sample.pairs) {
      if (ctx.signal.aborted) throw new Error('A/B aborted');
      for await (const event of this.llm.translate({ text: pair.source, direction: 'forward', agent, signal: ctx.signal })) {
        // a fallback answer is the built-in engine's, not the LLM's: that pair is left out of both sides
        if (event.type === 'translation_complete' && event.engine === 'llm')
          answered.push({ llm: event.final_translation, builtin: pair.hypothesis, target: pair.target });
      }
      await ctx.heartbeat();
    }
    if (answered.length) {
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
    } else this.logger.warn(`agent ${job.agentId} ${job.version}: the LLM answered none of the ${sample.pairs.length} held-out pairs; no A/B`);
    await this.discard(job.agentId, job.version);
  }

  private async discard(agentId: string, version: string): Promise<void> {
    await this.storage.delete(qualitySampleKey(agentId, version));
    await this.storage.delete(qualityModelKey(agentId, version));
  }
}
