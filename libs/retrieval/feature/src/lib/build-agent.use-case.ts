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
  type RetrievalIndexPort,
} from '@gaia/retrieval/data-access';
import { BUILD_AGENT_JOB, RETRIEVAL_STATE } from './retrieval.tokens';
import { withCorrections } from './learning-feedback';

export type BuildAgentJob = EventMap['ingestion.pairs-stored.v1'];

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
      const now = Date.now();
      if (now - lastEmit < 1000 && fraction < 1) return;
      lastEmit = now;
      await this.ds.transaction((em) => this.outbox.add(em, 'retrieval.build-progress.v1', { agentId: e.agentId, taskId: e.taskId, version: e.version, fraction, message }));
      await ctx.heartbeat();
    };

    try {
      const pairsJsonl = await withCorrections(this.rpc, e.agentId, await this.storage.get(e.pairsKey));
      await progress(0, 'Learning from your examples');
      let pending: Promise<void> = Promise.resolve();
      const out = await learnAgentOffThread({ pairsJsonl, srcLang: e.srcLang, tgtLang: e.tgtLang }, (f, m) => {
        pending = pending.then(() => progress(f, m)).catch(() => undefined);
      }, ctx.signal);
      await pending;
      await this.storage.put(key, encodeAgentArtifacts({ model: out.model, index: out.index }));
      if (out.heldOutArtifacts) await storeQualitySample(this.storage, { agentId: e.agentId, version: e.version, srcLang: e.srcLang, tgtLang: e.tgtLang }, out.heldOut, out.heldOutArtifacts);
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
      await this.ds.transaction(async (em) => {
        // A newer version may have started while this one learned: then it is not announced (its job will be).
        if (!(await this.state.markReady(em, { agentId: e.agentId, version: e.version, artifactKey: key, learnedSummary: out.summary, pairCount }))) return;
        await this.outbox.add(em, 'retrieval.agent-learned.v1', {
          agentId: e.agentId,
          taskId: e.taskId,
          version: e.version,
          artifactKey: key,
          learnedSummary: out.summary,
          pairCount,
          stats: out.stats,
          learnedAt: this.clock.now().toISOString(),
          quality: out.quality,
        });
      }, );
      this.logger.log(`agent ${e.agentId} v${e.version}: ${pairCount} pairs learned in ${out.stats.trainingMs} ms`);
    } catch (err) {
      if (ctx.signal.aborted) throw err; // shutting down: the job resumes elsewhere
      const message = err instanceof Error ? err.message : String(err);
      if (ctx.attempt < 3) throw err; // retried with backoff
      await this.ds.transaction(async (em) => {
        await this.state.markFailed(em, e.agentId, e.version, message);
        await this.outbox.add(em, 'retrieval.build-failed.v1', { agentId: e.agentId, taskId: e.taskId, version: e.version, message: `Learning failed: ${message}` });
      });
    }
  }
}
