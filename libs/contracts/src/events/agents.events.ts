import { z } from 'zod';
import { defineEvent, type EventRegistry } from './define';
import { agentDtoSchema } from '../rpc/agents.rpc';

export const agentUpdatedSchema = z.object({
  agentId: z.string(),
  ownerId: z.string(),
  /** Lower-cased editor emails (same as agent.sharedWithEmails): push `agent_updated` to the owner and them. */
  sharedWithEmails: z.array(z.string()),
  /** Editors that lost access with this change (team member removed). */
  removedEmails: z.array(z.string()).default([]),
  change: z.enum(['created', 'updated', 'visibility', 'processing', 'learned', 'sharing']),
  agent: agentDtoSchema,
  /** Monotonic per agent. */
  version: z.number().int(),
  occurredAt: z.string(),
});
export type AgentUpdatedV1 = z.infer<typeof agentUpdatedSchema>;

export const agentDeletedSchema = z.object({
  agentId: z.string(),
  ownerId: z.string(),
  sharedWithEmails: z.array(z.string()),
  deletedAt: z.string(),
});
export type AgentDeletedV1 = z.infer<typeof agentDeletedSchema>;

/** Events published by the agents domain. Add entries; never rename or remove one (add a v2 instead). */
export const agentsEvents = {
  'agents.agent-updated.v1': defineEvent({
    description:
      'An agent was created or changed (fields, visibility, processing state, learned results, sharing): the gateway pushes agent_updated to the owner and editors.',
    schema: agentUpdatedSchema,
    subscribers: ['gateway'],
    keyField: 'agentId',
  }),
  'agents.agent-deleted.v1': defineEvent({
    description: 'An agent was deleted by its owner: ingestion removes tasks, files, pairs and originals; retrieval removes the index and learned artifacts.',
    schema: agentDeletedSchema,
    subscribers: ['ingestion', 'retrieval'],
    keyField: 'agentId',
  }),
} satisfies EventRegistry;
