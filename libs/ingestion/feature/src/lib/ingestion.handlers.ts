import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap, RpcRequest, RpcResponse } from '@gaia/contracts';
import { OnEvent, OnJob, OnRpc, type JobContext } from '@gaia/shared/messaging';
import { LearningOutcomeUseCase } from './learning-outcome.use-case';
import { PROCESS_TASK_JOB, PROCESS_TASK_MAX_ATTEMPTS } from './ingestion.tokens';
import { ProcessTaskUseCase } from './process-task.use-case';
import { PublicCorporaUseCase } from './corpora/import-public-corpus.use-case';
import { RebuildAgentUseCase } from './rebuild-agent.use-case';
import { StartProcessingUseCase } from './start-processing.use-case';
import { AgentDataUseCase, GetTaskUseCase } from './task-queries.use-case';

/** RPC servers of the ingestion service: map the request to a use case, nothing else. */
@Injectable()
export class IngestionRpcHandlers {
  constructor(
    private readonly start: StartProcessingUseCase,
    private readonly getTask: GetTaskUseCase,
    private readonly agentData: AgentDataUseCase,
    private readonly rebuild: RebuildAgentUseCase,
    private readonly corpora: PublicCorporaUseCase,
  ) {}

  @OnRpc('ingestion.start-processing.v1')
  startProcessing(req: RpcRequest<'ingestion.start-processing.v1'>): Promise<RpcResponse<'ingestion.start-processing.v1'>> {
    return this.start.execute(req);
  }

  @OnRpc('ingestion.get-task.v1')
  task(req: RpcRequest<'ingestion.get-task.v1'>): Promise<RpcResponse<'ingestion.get-task.v1'>> {
    return this.getTask.execute(req.taskId);
  }

  @OnRpc('ingestion.prepare-download.v1')
  download(req: RpcRequest<'ingestion.prepare-download.v1'>): Promise<RpcResponse<'ingestion.prepare-download.v1'>> {
    return this.agentData.prepareDownload(req.agentId);
  }

  @OnRpc('ingestion.agent-stats.v1')
  stats(req: RpcRequest<'ingestion.agent-stats.v1'>): Promise<RpcResponse<'ingestion.agent-stats.v1'>> {
    return this.agentData.stats(req.agentId);
  }

  @OnRpc('ingestion.list-public-corpora.v1')
  async listCorpora(req: RpcRequest<'ingestion.list-public-corpora.v1'>): Promise<RpcResponse<'ingestion.list-public-corpora.v1'>> {
    return { corpora: await this.corpora.list(req.srcLang, req.tgtLang) };
  }

  @OnRpc('ingestion.import-public-corpus.v1')
  importCorpus(req: RpcRequest<'ingestion.import-public-corpus.v1'>): Promise<RpcResponse<'ingestion.import-public-corpus.v1'>> {
    return this.corpora.import(req);
  }

  @OnRpc('ingestion.rebuild-agent.v1')
  rebuildAgent(req: RpcRequest<'ingestion.rebuild-agent.v1'>): Promise<RpcResponse<'ingestion.rebuild-agent.v1'>> {
    return this.rebuild.execute(req.agentId);
  }

  @OnRpc('ingestion.delete-agent-data.v1')
  remove(req: RpcRequest<'ingestion.delete-agent-data.v1'>): Promise<RpcResponse<'ingestion.delete-agent-data.v1'>> {
    return this.agentData.delete(req.agentId);
  }
}

/** Lease of a task's job (heartbeat per file): the fallback when a dead worker's liveness lock cannot be seen. */
export const PROCESS_TASK_LEASE_MS = Number(process.env['INGESTION_JOB_LEASE_MS'] ?? 120_000);

/** The durable worker of processing tasks (resumed after a crash by the job runner's lease). */
@Injectable()
export class ProcessTaskJob {
  constructor(private readonly process: ProcessTaskUseCase) {}

  @OnJob('ingestion', PROCESS_TASK_JOB, { leaseMs: PROCESS_TASK_LEASE_MS })
  async handle(payload: { taskId: string }, ctx: JobContext): Promise<void> {
    try {
      await this.process.run(payload.taskId, ctx);
    } catch (e) {
      if (ctx.signal.aborted || ctx.attempt < PROCESS_TASK_MAX_ATTEMPTS) throw e; // retried (or resumed elsewhere)
      await this.process.giveUp(payload.taskId, (e as Error).message ?? String(e));
    }
  }
}

/** Events ingestion consumes: learning outcome of a stored version, and agent deletion (cascade). */
@Injectable()
export class IngestionEventListener {
  constructor(
    private readonly learning: LearningOutcomeUseCase,
    private readonly agentData: AgentDataUseCase,
  ) {}

  @OnEvent('ingestion', 'retrieval.build-progress.v1')
  onBuildProgress(e: EventMap['retrieval.build-progress.v1'], em: EntityManager): Promise<void> {
    return this.learning.progress(em, e);
  }

  @OnEvent('ingestion', 'retrieval.agent-learned.v1')
  onLearned(e: EventMap['retrieval.agent-learned.v1'], em: EntityManager): Promise<void> {
    return this.learning.learned(em, e);
  }

  @OnEvent('ingestion', 'retrieval.build-failed.v1')
  onBuildFailed(e: EventMap['retrieval.build-failed.v1'], em: EntityManager): Promise<void> {
    return this.learning.failed(em, e);
  }

  @OnEvent('ingestion', 'agents.agent-deleted.v1')
  async onAgentDeleted(e: EventMap['agents.agent-deleted.v1'], em: EntityManager): Promise<void> {
    await this.agentData.deleteRows(em, e.agentId);
  }
}
