import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { AgentsErasureRepository } from '@gaia/agents/data-access';
import { OUTBOX, type Outbox } from '@gaia/shared/messaging';

/**
 * A deleted account's agents go with it: each live agent is announced as deleted (ingestion and retrieval remove
 * pairs, uploads, tasks, index and artifacts), then every agent row of the account, its team rows (as owner and as
 * invited member) and its email in other owners' shares are removed. Idempotent (inbox transaction).
 */
@Injectable()
export class EraseAccountAgentsUseCase {
  constructor(
    private readonly erasure: AgentsErasureRepository,
    @Inject(OUTBOX) private readonly outbox: Outbox,
  ) {}

  async execute(em: EntityManager, e: EventMap['identity.account-deleted.v1']): Promise<void> {
    const email = e.email.toLowerCase();
    for (const a of await this.erasure.ownedAgents(em, e.userId)) {
      if (a.live)
        await this.outbox.add(em, 'agents.agent-deleted.v1', {
          agentId: a.id,
          ownerId: e.userId,
          sharedWithEmails: a.sharedWithEmails,
          deletedAt: e.deletedAt,
        });
    }
    await this.erasure.erase(em, e.userId, email);
  }
}
