import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AgentDto } from '@gaia/contracts';
import { AGENT_REPOSITORY, TEAM_REPOSITORY, type AgentEntity, type AgentRepositoryPort, type TeamRepositoryPort } from '@gaia/agents/data-access';
import { UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { CLOCK, DomainError, newId, type Clock } from '@gaia/shared/kernel';
import { AgentEventPublisher } from '../agent-events';
import { mergeDocumentSource, toAgentDto } from '../agent.mapper';

/** What a new agent is made of: the owner's fields of the record, the names of its files and, to be idempotent, its id. */
export type NewAgent = Pick<
  AgentEntity,
  'ownerId' | 'ownerEmail' | 'srcLang' | 'tgtLang' | 'customPrompt' | 'coreMemory' | 'processingTaskId' | 'engine' | 'public'
> & {
  id?: string;
  filenames: string[];
};

export const normalizeLang = (lang: string): string => lang.trim().toLowerCase();

/**
 * Creates an agent: languages lower-cased, sharedWithEmails = the owner's team (spec §6: editors see
 * every agent of the owner, also the ones created later). Idempotent on id for the same owner.
 */
@Injectable()
export class CreateAgentUseCase {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(AGENT_REPOSITORY) private readonly agents: AgentRepositoryPort,
    @Inject(TEAM_REPOSITORY) private readonly team: TeamRepositoryPort,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly events: AgentEventPublisher,
  ) {}

  async execute(input: NewAgent): Promise<AgentDto> {
    return this.uow.run(async (em) => toAgentDto((await this.createIn(em, input)).agent));
  }

  /** In the caller's transaction; `created` false when the id already existed (same owner). */
  async createIn(em: EntityManager, input: NewAgent): Promise<{ agent: AgentEntity; created: boolean }> {
    const srcLang = normalizeLang(input.srcLang);
    const tgtLang = normalizeLang(input.tgtLang);
    if (!srcLang || !tgtLang) throw DomainError.invalid('Please fill in all required fields', 'missing_fields');
    // Serialises with team changes of the owner: a concurrent invite cannot miss this agent.
    await this.agents.lockOwner(em, input.ownerId);
    if (input.id) {
      const existing = await this.agents.findById(em, input.id);
      if (existing) {
        if (existing.ownerId !== input.ownerId) throw DomainError.conflict('An agent with this id already exists.', 'agent_exists');
        if (existing.deletedAt) throw DomainError.conflict('This agent was deleted.', 'agent_deleted');
        return { agent: existing, created: false };
      }
    }
    const now = this.clock.now();
    const members = await this.team.list(em, input.ownerId);
    const agent: AgentEntity = {
      id: input.id ?? newId(),
      ownerId: input.ownerId,
      ownerEmail: input.ownerEmail.trim().toLowerCase(),
      srcLang,
      tgtLang,
      customPrompt: input.customPrompt,
      coreMemory: input.coreMemory,
      learnedMemory: '',
      public: input.public,
      sharedWithEmails: [...new Set(members.filter((m) => m.status === 'active').map((m) => m.email))],
      documentSource: mergeDocumentSource(null, input.filenames),
      processingTaskId: input.processingTaskId,
      processingStatus: input.processingTaskId ? 'PROCESSING' : null,
      processingError: null,
      documentCount: 0,
      textBlocksExtracted: 0,
      pairCount: 0,
      engine: input.engine,
      artifactVersion: null,
      artifactKey: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
    try {
      await this.agents.insert(em, agent);
    } catch (e) {
      // Same id created at the same moment by another owner (the owner lock does not cover that).
      if ((e as { code?: string }).code === '23505' || (e as { driverError?: { code?: string } }).driverError?.code === '23505') {
        throw DomainError.conflict('An agent with this id already exists.', 'agent_exists');
      }
      throw e;
    }
    await this.events.updated(em, agent, 'created');
    return { agent, created: true };
  }
}
