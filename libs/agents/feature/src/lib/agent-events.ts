import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AgentUpdatedV1 } from '@gaia/contracts';
import type { AgentEntity } from '@gaia/agents/data-access';
import { CLOCK, type Clock } from '@gaia/shared/kernel';
import { OUTBOX, type Outbox } from '@gaia/shared/messaging';
import { toAgentDto } from './agent.mapper';

/** Writes the agents events in the caller's transaction (outbox). */
@Injectable()
export class AgentEventPublisher {
  constructor(
    @Inject(OUTBOX) private readonly outbox: Outbox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async updated(em: EntityManager, a: AgentEntity, change: AgentUpdatedV1['change'], removedEmails: string[] = []): Promise<void> {
    await this.outbox.add(em, 'agents.agent-updated.v1', {
      agentId: a.id,
      ownerId: a.ownerId,
      sharedWithEmails: [...a.sharedWithEmails],
      removedEmails,
      change,
      agent: toAgentDto(a),
      version: a.version,
      occurredAt: this.clock.now().toISOString(),
    });
  }

  async deleted(em: EntityManager, a: AgentEntity): Promise<void> {
    await this.outbox.add(em, 'agents.agent-deleted.v1', {
      agentId: a.id,
      ownerId: a.ownerId,
      sharedWithEmails: [...a.sharedWithEmails],
      deletedAt: (a.deletedAt ?? this.clock.now()).toISOString(),
    });
  }
}
