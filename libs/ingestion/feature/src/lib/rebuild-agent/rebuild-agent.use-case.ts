import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { RpcResponse } from '@gaia/contracts';
import { TASK_REPOSITORY, type TaskRepositoryPort } from '@gaia/ingestion/data-access';
import { DATA_SOURCE } from '@gaia/shared/database';
import { DomainError, newId } from '@gaia/shared/kernel';
import { OUTBOX, type Outbox } from '@gaia/shared/messaging';
import { storageKeys } from '../ingestion.tokens';
import { TaskLifecycle } from '../task-lifecycle.service';

/**
 * Operator rebuild: announces the agent's latest stored pairs again under a fresh version, so retrieval
 * learns a new artifact from them (e.g. after an engine upgrade). The stored pairs and tasks are unchanged. Refused while a
 * task of the agent is processing: that task's version is the one to learn.
 */
@Injectable()
export class RebuildAgentUseCase {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(OUTBOX) private readonly outbox: Outbox,
    @Inject(TASK_REPOSITORY) private readonly tasks: TaskRepositoryPort,
    private readonly lifecycle: TaskLifecycle,
  ) {}

  execute(agentId: string): Promise<RpcResponse<'ingestion.rebuild-agent.v1'>> {
    return this.ds.transaction(async (em) => {
      await this.lifecycle.assertIdle(em, agentId);
      const stored = (await this.tasks.listForAgent(em, agentId)).filter((t) => t.pairsVersion && t.status === 'COMPLETED');
      const last = stored[stored.length - 1];
      if (!last) throw DomainError.notFound('This agent has no learned data to rebuild.', 'nothing_to_rebuild');
      const version = newId();
      await this.outbox.add(em, 'ingestion.pairs-stored.v1', {
        agentId,
        taskId: last.id,
        srcLang: last.srcLang,
        tgtLang: last.tgtLang,
        pairsKey: storageKeys.pairsSnapshot(agentId, last.id),
        addedKey: storageKeys.addedPairs(agentId, last.id),
        pairCount: last.pairCount,
        addedCount: last.pairCount,
        version,
      });
      return { version, pairCount: last.pairCount };
    });
  }
}
