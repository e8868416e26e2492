import { Inject, Injectable } from '@nestjs/common';
import type { PublicCorpusDto } from '@gaia/contracts';
import { DomainError } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { OPERATOR_POLL_MS, OPERATOR_WAIT_MS } from './operator.tokens';
import { SystemAccountService } from './system-account.service';
import { waitUntil } from './wait-until';

export interface ImportedCorpus {
  agent_id: string;
  corpus: string;
  license: string;
  status: 'COMPLETED' | 'FAILED';
  pair_count: number;
  public: boolean;
  description: string;
  message: string;
}

/**
 * `gaia corpora list|import`: public corpora of the OPUS-style catalogue for a language pair, imported through
 * the normal ingestion path into a new public agent of the system account, or into an existing agent (as its owner).
 */
@Injectable()
export class OperatorCorporaUseCase {
  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    private readonly system: SystemAccountService,
  ) {}

  async list(srcLang: string, tgtLang: string): Promise<PublicCorpusDto[]> {
    return (await this.rpc.call('ingestion.list-public-corpora.v1', { srcLang, tgtLang })).corpora;
  }

  async import(srcLang: string, tgtLang: string, corpus: string, opts: { format?: string; agentId?: string }): Promise<ImportedCorpus> {
    if (opts.format !== undefined && opts.format !== 'moses' && opts.format !== 'tmx')
      throw DomainError.invalid('The format is moses or tmx.', 'invalid_format');
    let ownerId: string;
    if (opts.agentId) {
      const { agent } = await this.rpc.call('agents.resolve.v1', { agentId: opts.agentId });
      if (!agent) throw DomainError.notFound('Model not found.', 'agent_not_found');
      ownerId = agent.uid;
    } else ownerId = (await this.system.ensure()).id;
    const started = await this.rpc.call('ingestion.import-public-corpus.v1', {
      ownerId,
      srcLang,
      tgtLang,
      corpus,
      format: opts.format as 'moses' | 'tmx' | undefined,
      agentId: opts.agentId,
    });
    const { task } = await waitUntil(
      () => this.rpc.call('ingestion.get-task.v1', { taskId: started.task_id }),
      (t) => t.task.status !== 'PROCESSING',
      {
        intervalMs: OPERATOR_POLL_MS,
        timeoutMs: OPERATOR_WAIT_MS,
        what: `import of ${corpus}`,
      },
    );
    let agent = await waitUntil(
      () => this.rpc.call('agents.resolve.v1', { agentId: started.model_id }),
      (r) => r.agent?.processing_status !== 'PROCESSING',
      {
        intervalMs: OPERATOR_POLL_MS,
        timeoutMs: OPERATOR_WAIT_MS,
        what: `agent ${started.model_id}`,
      },
    ).then((r) => r.agent);
    // A new agent of the system account is a public translator once learned.
    if (agent && !opts.agentId && task.status === 'COMPLETED')
      agent = { ...agent, ...(await this.rpc.call('agents.set-visibility.v1', { agentId: agent.id, viewer: { uid: ownerId, email: '' }, public: true })) };
    return {
      agent_id: started.model_id,
      corpus: `${started.corpus.name} ${started.corpus.version}`.trim(),
      license: started.corpus.license,
      status: task.status === 'COMPLETED' ? 'COMPLETED' : 'FAILED',
      pair_count: agent?.pair_count ?? 0,
      public: agent?.public ?? false,
      description: agent?.custom_prompt ?? '',
      message: task.message,
    };
  }
}
