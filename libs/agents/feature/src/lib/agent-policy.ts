import { DomainError } from '@gaia/shared/kernel';
import type { AgentEntity } from '@gaia/agents/data-access';

/** Who is looking: the session user (or an API key's owner); null = anonymous. */
export interface Viewer {
  uid: string;
  email: string;
}
export type AgentRole = 'owner' | 'editor' | 'reader';
/** read: see it; edit: change fields, add data; owner: visibility and delete. */
export type AgentNeed = 'read' | 'edit' | 'owner';

export const MODEL_NOT_FOUND = 'Model not found.';

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** The viewer's role on a live agent, or null when the viewer may not even see it. */
export function roleOf(agent: Pick<AgentEntity, 'ownerId' | 'public' | 'sharedWithEmails' | 'deletedAt'>, viewer: Viewer | null): AgentRole | null {
  if (agent.deletedAt) return null;
  if (viewer && viewer.uid === agent.ownerId) return 'owner';
  const email = viewer ? normalizeEmail(viewer.email) : '';
  if (email && agent.sharedWithEmails.includes(email)) return 'editor';
  return agent.public ? 'reader' : null;
}

const RANK: Record<AgentRole, number> = { reader: 0, editor: 1, owner: 2 };
const NEEDED: Record<AgentNeed, AgentRole> = { read: 'reader', edit: 'editor', owner: 'owner' };

/**
 * The permission rule of spec §6: anyone reads public agents; owner and editors read and modify private
 * ones; only the owner changes visibility or deletes. Someone who may not see an agent gets 404 (its
 * existence is not revealed); someone who sees it but lacks the right gets 403.
 */
export function authorize(
  agent: AgentEntity | null,
  viewer: Viewer | null,
  need: AgentNeed,
  action = 'change this agent',
): { agent: AgentEntity; role: AgentRole } {
  if (!agent) throw DomainError.notFound(MODEL_NOT_FOUND, 'agent_not_found');
  const role = roleOf(agent, viewer);
  if (!role) throw DomainError.notFound(MODEL_NOT_FOUND, 'agent_not_found');
  if (RANK[role] < RANK[NEEDED[need]]) {
    if (need === 'owner') throw DomainError.forbidden(`Only the owner can ${action}.`, 'owner_only');
    throw DomainError.forbidden('You do not have permission to modify this agent.', 'forbidden');
  }
  return { agent, role };
}
