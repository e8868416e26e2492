import { Inject, Injectable } from '@nestjs/common';
import { AGENT_REPOSITORY, FEEDBACK_REPOSITORY, type AgentEntity, type AgentRepositoryPort, type FeedbackRepositoryPort } from '@gaia/agents/data-access';
import { UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { CLOCK, type Clock } from '@gaia/shared/kernel';
import { AgentEventPublisher } from '../agent-events';
import { authorize, type Viewer } from '../agent-policy';

/**
 * Owner-only delete. The row becomes a tombstone (never served again, and late processing events cannot
 * bring it back; its texts and editors' emails blanked); `agents.agent-deleted.v1` lets ingestion and retrieval remove data, index and memory.
 */
@Injectable()
export class DeleteAgentUseCase {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(AGENT_REPOSITORY) private readonly agents: AgentRepositoryPort,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly events: AgentEventPublisher,
    @Inject(FEEDBACK_REPOSITORY) private readonly feedback: FeedbackRepositoryPort,
  ) {}

  execute(agentId: string, viewer: Viewer): Promise<{ success: true }> {
    return this.uow.run(async (em) => {
      const { agent } = authorize(await this.agents.findById(em, agentId, { lock: true }), viewer, 'owner', 'delete this agent');
      const now = this.clock.now();
      const tombstone: AgentEntity = {
        ...agent,
        public: false,
        sharedWithEmails: [], // the editors' emails: nothing personal stays in the tombstone
        processingTaskId: null,
        learnedMemory: '',
        coreMemory: '',
        customPrompt: '',
        artifactVersion: null,
        artifactKey: null,
        version: agent.version + 1,
        updatedAt: now,
        deletedAt: now,
      };
      await this.agents.save(em, tombstone);
      await this.feedback.removeAllForAgent(em, agentId); // the owner's corrections and glossary go with it
      await this.events.deleted(em, tombstone);
      return { success: true as const };
    });
  }
}
