import { Inject, Injectable } from '@nestjs/common';
import type { TeamMemberDto } from '@gaia/contracts';
import { AGENT_REPOSITORY, TEAM_REPOSITORY, type AgentRepositoryPort, type TeamMemberEntity, type TeamRepositoryPort } from '@gaia/agents/data-access';
import { DATA_SOURCE, UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { CLOCK, DomainError, newId, type Clock } from '@gaia/shared/kernel';
import type { DataSource } from 'typeorm';
import { AgentEventPublisher } from './agent-events';
import { normalizeEmail } from './agent-policy';

export const FILL_ALL_FIELDS = 'Please fill in all fields.';
export const INVALID_EMAIL = 'Please enter a valid email address.';
/** The "simple pattern" of spec §5: something@something.something, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;

/** Validates an invite (spec §5 'Team invite'); answers the trimmed name and lower-cased email. */
export function validateInvite(name: string, email: string): { name: string; email: string } {
  const n = name.trim();
  const e = normalizeEmail(email);
  if (!n || !e) throw DomainError.invalid(FILL_ALL_FIELDS, 'missing_fields');
  if (!EMAIL_PATTERN.test(e)) throw DomainError.invalid(INVALID_EMAIL, 'invalid_email');
  return { name: n, email: e };
}

export const toTeamMemberDto = (m: TeamMemberEntity): TeamMemberDto => ({
  id: m.id,
  name: m.name,
  email: m.email,
  role: m.role,
  status: m.status,
  addedAt: m.addedAt.toISOString(),
});

/**
 * Teams (spec §6): an invited editor's email joins sharedWithEmails of every agent of the owner (and of
 * agents created later, see CreateAgentUseCase); removing the member removes it everywhere. Team and
 * agents change in one transaction under the owner's lock.
 */
@Injectable()
export class TeamUseCase {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(AGENT_REPOSITORY) private readonly agents: AgentRepositoryPort,
    @Inject(TEAM_REPOSITORY) private readonly team: TeamRepositoryPort,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly events: AgentEventPublisher,
  ) {}

  async list(ownerId: string): Promise<TeamMemberDto[]> {
    return (await this.team.list(this.ds.manager, ownerId)).map(toTeamMemberDto);
  }

  invite(ownerId: string, ownerEmail: string, name: string, email: string): Promise<TeamMemberDto> {
    const v = validateInvite(name, email);
    if (ownerEmail && normalizeEmail(ownerEmail) === v.email) throw DomainError.invalid('You cannot invite yourself.', 'self_invite');
    return this.uow.run(async (em) => {
      await this.agents.lockOwner(em, ownerId);
      const now = this.clock.now();
      const member: TeamMemberEntity = { id: newId(), ownerId, name: v.name, email: v.email, role: 'Editor', status: 'invited', addedAt: now };
      if (!(await this.team.insert(em, member))) throw DomainError.conflict('This person is already a member of your team.', 'member_exists');
      for (const a of await this.agents.addSharedEmail(em, ownerId, v.email, now)) await this.events.updated(em, a, 'sharing');
      return toTeamMemberDto(member);
    });
  }

  remove(ownerId: string, memberId: string): Promise<{ removed: true }> {
    return this.uow.run(async (em) => {
      await this.agents.lockOwner(em, ownerId);
      const member = await this.team.delete(em, ownerId, memberId);
      if (!member) throw DomainError.notFound('Team member not found.', 'member_not_found');
      for (const a of await this.agents.removeSharedEmail(em, ownerId, member.email, this.clock.now())) await this.events.updated(em, a, 'sharing', [member.email]);
      return { removed: true as const };
    });
  }
}
