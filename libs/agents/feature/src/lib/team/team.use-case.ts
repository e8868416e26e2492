import { Inject, Injectable } from '@nestjs/common';
import type { TeamMemberDto } from '@gaia/contracts';
import { AGENT_REPOSITORY, TEAM_REPOSITORY, type AgentRepositoryPort, type TeamMemberEntity, type TeamRepositoryPort } from '@gaia/agents/data-access';
import { DATA_SOURCE, UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { CLOCK, DomainError, newId, type Clock } from '@gaia/shared/kernel';
import type { DataSource } from 'typeorm';
import { AgentEventPublisher } from '../agent-events';
import { normalizeEmail, type Viewer } from '../agent-policy';

export const FILL_ALL_FIELDS = 'Please fill in all fields.';
export const INVALID_INVITATION = 'This invitation link is invalid, expired or already used.';
export const INVITATION_FOR_ANOTHER_EMAIL = 'This invitation was sent to another email address. Sign in with that address to accept it.';
/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
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
 * Teams (spec §6): an invitation is mailed as a single-use link (only its token's hash is stored here) and
 * grants nothing while pending. When the signed-in, verified owner of the invited email accepts, the email
 * joins sharedWithEmails of every agent of the owner (and of agents created later, see CreateAgentUseCase);
 * removing the member removes it everywhere. Team and agents change in one transaction under the owner's lock.
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

  invite(ownerId: string, ownerEmail: string, name: string, email: string, tokenHash: string): Promise<TeamMemberDto> {
    const v = validateInvite(name, email);
    if (ownerEmail && normalizeEmail(ownerEmail) === v.email) throw DomainError.invalid('You cannot invite yourself.', 'self_invite');
    return this.uow.run(async (em) => {
      await this.agents.lockOwner(em, ownerId);
      const now = this.clock.now();
      const member: TeamMemberEntity = {
        id: newId(),
        ownerId,
        name: v.name,
        email: v.email,
        role: 'Editor',
        status: 'invited',
        addedAt: now,
        tokenHash,
        tokenExpiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      };
      if (!(await this.team.insert(em, member))) throw DomainError.conflict('This person is already a member of your team.', 'member_exists');
      return toTeamMemberDto(member);
    });
  }

  /** The invitee (signed in, email verified: checked by the caller) accepts: rights start here. */
  accept(tokenHash: string, viewer: Viewer): Promise<TeamMemberDto> {
    const email = normalizeEmail(viewer.email);
    return this.uow.run(async (em) => {
      const pending = await this.team.findByTokenHash(em, tokenHash);
      if (!pending) throw DomainError.notFound(INVALID_INVITATION, 'invitation_invalid');
      if (pending.email !== email) throw DomainError.forbidden(INVITATION_FOR_ANOTHER_EMAIL, 'invitation_other_email');
      await this.agents.lockOwner(em, pending.ownerId);
      const now = this.clock.now();
      const member = await this.team.activate(em, tokenHash, email, now);
      if (!member) throw DomainError.notFound(INVALID_INVITATION, 'invitation_invalid');
      for (const a of await this.agents.addSharedEmail(em, member.ownerId, member.email, now)) await this.events.updated(em, a, 'sharing');
      return toTeamMemberDto(member);
    });
  }

  remove(ownerId: string, memberId: string): Promise<{ removed: true }> {
    return this.uow.run(async (em) => {
      await this.agents.lockOwner(em, ownerId);
      const member = await this.team.delete(em, ownerId, memberId);
      if (!member) throw DomainError.notFound('Team member not found.', 'member_not_found');
      for (const a of await this.agents.removeSharedEmail(em, ownerId, member.email, this.clock.now()))
        await this.events.updated(em, a, 'sharing', [member.email]);
      return { removed: true as const };
    });
  }
}
