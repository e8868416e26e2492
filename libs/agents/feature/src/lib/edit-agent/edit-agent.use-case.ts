import { Inject, Injectable } from '@nestjs/common';
import type { AgentDto, AgentPatch } from '@gaia/contracts';
import { AGENT_REPOSITORY, type AgentEntity, type AgentRepositoryPort } from '@gaia/agents/data-access';
import { UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { CLOCK, DomainError, type Clock } from '@gaia/shared/kernel';
import { AgentEventPublisher } from '../agent-events';
import { authorize, type Viewer } from '../agent-policy';
import { toAgentDto } from '../agent.mapper';
import { normalizeLang } from '../create-agent/create-agent.use-case';

export const REQUIRED_FIELDS = 'Please fill in all required fields';

/** Applies an edit (spec §5 'Edit agent': languages and description required) to an agent; pure. */
export function applyPatch(agent: AgentEntity, patch: AgentPatch): Partial<AgentEntity> {
  const changes: Partial<AgentEntity> = {};
  for (const [field, key] of [
    ['src_lang', 'srcLang'],
    ['tgt_lang', 'tgtLang'],
  ] as const) {
    const v = patch[field];
    if (v === undefined) continue;
    const lang = normalizeLang(v);
    if (!lang) throw DomainError.invalid(REQUIRED_FIELDS, 'missing_fields');
    if (lang !== agent[key]) changes[key] = lang;
  }
  if (patch.custom_prompt !== undefined) {
    if (!patch.custom_prompt.trim()) throw DomainError.invalid(REQUIRED_FIELDS, 'missing_fields');
    if (patch.custom_prompt !== agent.customPrompt) changes.customPrompt = patch.custom_prompt;
  }
  if (patch.core_memory !== undefined && patch.core_memory !== agent.coreMemory) changes.coreMemory = patch.core_memory;
  if (patch.engine !== undefined && patch.engine !== agent.engine) changes.engine = patch.engine;
  return changes;
}

/** Owner/editor edits and owner-only visibility. */
@Injectable()
export class EditAgentUseCase {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(AGENT_REPOSITORY) private readonly agents: AgentRepositoryPort,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly events: AgentEventPublisher,
  ) {}

  update(agentId: string, viewer: Viewer, patch: AgentPatch): Promise<AgentDto> {
    return this.uow.run(async (em) => {
      const { agent } = authorize(await this.agents.findById(em, agentId, { lock: true }), viewer, 'edit');
      const changes = applyPatch(agent, patch);
      if (Object.keys(changes).length === 0) return toAgentDto(agent);
      const next: AgentEntity = { ...agent, ...changes, version: agent.version + 1, updatedAt: this.clock.now() };
      await this.agents.save(em, next);
      await this.events.updated(em, next, 'updated');
      return toAgentDto(next);
    });
  }

  setVisibility(agentId: string, viewer: Viewer, isPublic: boolean): Promise<AgentDto> {
    return this.uow.run(async (em) => {
      const { agent } = authorize(await this.agents.findById(em, agentId, { lock: true }), viewer, 'owner', 'change the visibility');
      if (agent.public === isPublic) return toAgentDto(agent);
      const next: AgentEntity = { ...agent, public: isPublic, version: agent.version + 1, updatedAt: this.clock.now() };
      await this.agents.save(em, next);
      await this.events.updated(em, next, 'visibility');
      return toAgentDto(next);
    });
  }
}
