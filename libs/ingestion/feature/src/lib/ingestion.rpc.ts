import { Injectable } from '@nestjs/common';
import type { RpcRequest, RpcResponse } from '@gaia/contracts';
import { OnRpc } from '@gaia/shared/messaging';
import { PublicCorporaUseCase } from './corpora/import-public-corpus.use-case';
import { RebuildAgentUseCase } from './rebuild-agent/rebuild-agent.use-case';
import { StartProcessingUseCase } from './start-processing/start-processing.use-case';
import { AgentDataUseCase, GetTaskUseCase } from './task-queries/task-queries.use-case';

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
}
