import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { HybridIndex } from '@gaia/engine';
import { CLOCK, type Clock } from '@gaia/shared/kernel';
import { DATA_SOURCE } from '@gaia/shared/database';
import { JOB_QUEUE, OUTBOX, RPC_CLIENT, type JobContext, type JobQueue, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import {
  artifactKey,
  encodeAgentArtifacts,
  EmbeddedRetrievalIndex,
  learnAgentOffThread,
  parsePairsJsonl,
  RETRIEVAL_INDEX,
  RetrievalStateRepository,
  storeQualitySample,
  type QualityOutput,
  type RetrievalIndexPort,
} from '@gaia/retrieval/data-access';
import { BUILD_AGENT_JOB, RETRIEVAL_STATE } from './retrieval.tokens';
import { withCorrections } from './learning-feedback';

export type BuildAgentJob = EventMap['ingestion.pairs-stored.v1'];

/** Heartbeat of the build job while its quality report is measured after the version is ready. */
const QUALITY_HEARTBEAT_MS = 10_000;
/** A build's progress is published at most this often (on the CLOCK); the end is always published. */
const PROGRESS_EVERY_MS = 1_000;

/**
 * Learns an agent version: reads the pairs ingestion stored, learns the core memory and the hybrid index
 * (off the event loop), writes the artifact, feeds the retrieval index, and announces the result — all
 * idempotent per (agent, version), so a job resumed after a crash ends in the same state.
 */
@Injectable()
export class BuildAgentUseCase {
  private readonly logger = new Logger('BuildAgent');

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(OUTBOX) private readonly outbox: Outbox,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(RETRIEVAL_INDEX) private readonly index: RetrievalIndexPort,
    @Inject(RETRIEVAL_STATE) private readonly state: RetrievalStateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
  ) {}

  /** Event handler side: record that a build is due and enqueue it, in the consumer's transaction. */
  async schedule(e: BuildAgentJob, em: import('typeorm').EntityManager): Promise<void> {
    await this.state.markBuilding(em, e.agentId, e.version, { srcLang: e.srcLang, tgtLang: e.tgtLang });
    await this.jobs.enqueue(em, BUILD_AGENT_JOB, e, { dedupeKey: `${e.agentId}:${e.version}`, maxAttempts: 3 });
  }

  async run(e: BuildAgentJob, ctx: JobContext): Promise<void> {
    const current = await this.state.get(this.ds.manager, e.agentId);
    if (!current) return; // agent deleted meanwhile
    if (current.version !== e.version) return; // superseded by a newer upload; that job builds it
    if (current.status === 'ready' && current.readyVersion === e.version) return; // already built (resumed job)

    const key = artifactKey(e.agentId, e.version);
    let lastEmit = 0;
    const progress = async (fraction: number, message: string) => {
      const now = this.clock.now().getTime();
      if (now - lastEmit < PROGRESS_EVERY_MS && fraction < 1) return;
      lastEmit = now;
      await this.ds.transaction((em) =>
        this.outbox.add(em, 'retrieval.build-progress.v1', { agentId: e.agentId, taskId: e.taskId, version: e.version, fraction, message }),
      );
      await ctx.heartbeat();
    };

    try {
      const pairsJsonl = await withCorrections(this.rpc, e.agentId, await this.storage.get(e.pairsKey));
      await progress(0, 'Learning from your examples');
      let pending: Promise<void> = Promise.resolve();
      const { learned: out, measureQuality } = await learnAgentOffThread(
        { pairsJsonl, srcLang: e.srcLang, tgtLang: e.tgtLang },
        (f, m) => {
          pending = pending.then(() => progress(f, m)).catch(() => undefined);
        },
        ctx.signal,
      );
      await pending;
      await this.storage.put(key, encodeAgentArtifacts({ model: out.model, index: out.index }));
      if (this.index instanceof EmbeddedRetrievalIndex) await this.index.adoptArtifact(e.agentId, key);
      else {
        // External index (OpenSearch): text for BM25 plus the engine's corpus-learned vector for the k-NN half.
        const hybrid = HybridIndex.deserialize(out.index);
        await this.index.upsert(
          e.agentId,
          parsePairsJsonl(pairsJsonl).map((p) => ({ ...p, vector: hybrid.embedText(p.source, 'source') })),
        );
      }
      const pairCount = e.pairCount;
      const learned: EventMap['retrieval.agent-learned.v1'] = {
        agentId: e.agentId,
        taskId: e.taskId,
        version: e.version,
        artifactKey: key,
        learnedSummary: out.summary,
        pairCount,
        stats: out.stats,
        learnedAt: this.clock.now().toISOString(),
      };
      const ready = await this.ds.transaction(async (em) => {
        // A newer version may have started while this one learned: then it is not announced (its job will be).
        if (!(await this.state.markReady(em, { agentId: e.agentId, version: e.version, artifactKey: key, learnedSummary: out.summary, pairCount })))
          return false;
        await this.outbox.add(em, 'retrieval.agent-learned.v1', learned);
        return true;
      });
      this.logger.log(`agent ${e.agentId} v${e.version}: ${pairCount} pairs learned in ${out.stats.trainingMs} ms`);
      // a failed report leaves the version ready without one (a resumed job finds it ready and ends)
      if (ready) {
        await this.reportQuality(e, learned, out.index, measureQuality, ctx).catch((err: unknown) => {
          if (ctx.signal.aborted) throw err;
          this.logger.warn(`agent ${e.agentId} v${e.version}: quality not reported: ${err instanceof Error ? err.message : String(err)}`);
        });
      }
    } catch (err) {
      if (ctx.signal.aborted) throw err; // shutting down: the job resumes elsewhere
      const message = err instanceof Error ? err.message : String(err);
      if (ctx.attempt < 3) throw err; // retried with backoff
      await this.ds.transaction(async (em) => {
        await this.state.markFailed(em, e.agentId, e.version, message);
        await this.outbox.add(em, 'retrieval.build-failed.v1', {
          agentId: e.agentId,
          taskId: e.taskId,
          version: e.version,
          message: `Learning failed: ${message}`,
        });
      });
    }
  }

  /**
   * The follow-up step of the build, once the version is ready: its quality report (measured off-thread) is stored —
   * the full model re-saved with the fitted confidence calibration under the same artifact key, the held-out sample
   * kept for the LLM A/B — and announced by `retrieval.agent-quality-measured.v1` (the learned fields with `quality`).
   * Skipped when a newer version started meanwhile.
   * docs/adr/0006-quality-report-held-out-at-build.md.
   */
  private async reportQuality(
    e: BuildAgentJob,
    learned: EventMap['retrieval.agent-learned.v1'],
    index: Uint8Array,
    measure: () => Promise<QualityOutput>,
    ctx: JobContext,
  ): Promise<void> {
    // the job keeps its lease while the model thread measures (no progress events: the task is already complete)
    const beat = setInterval(() => void ctx.heartbeat().catch(() => undefined), QUALITY_HEARTBEAT_MS);
    const q = await measure().finally(() => clearInterval(beat));
    if (q.calibratedModel) await this.storage.put(learned.artifactKey, encodeAgentArtifacts({ model: q.calibratedModel, index }));
    if (q.heldOutArtifacts)
      await storeQualitySample(this.storage, { agentId: e.agentId, version: e.version, srcLang: e.srcLang, tgtLang: e.tgtLang }, q.heldOut, q.heldOutArtifacts);
    const reported = await this.ds.transaction(async (em) => {
      // still the current version (markReady is idempotent for it and locks the row against a newer build starting)
      if (
        !(await this.state.markReady(em, {
          agentId: e.agentId,
          version: e.version,
          artifactKey: learned.artifactKey,
          learnedSummary: learned.learnedSummary,
          pairCount: learned.pairCount,
        }))
      )
        return false;
      await this.outbox.add(em, 'retrieval.agent-quality-measured.v1', { ...learned, quality: q.quality });
      return true;
    });
    if (reported) this.logger.log(`agent ${e.agentId} v${e.version}: quality measured on ${q.quality.heldOut} held-out pairs in ${q.quality.evaluationMs} ms`);
  }
}
