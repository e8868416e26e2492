import { z } from 'zod';
import { defineEvent, type EventRegistry } from './define';

export const accountDeletedSchema = z.object({
  userId: z.string(),
  /** Lower-cased: the services remove it from teams and shares. */
  email: z.string(),
  /** The account's API keys (billing removes their counters and usage links). */
  keyIds: z.array(z.string()),
  deletedAt: z.string(),
});
export type AccountDeletedV1 = z.infer<typeof accountDeletedSchema>;

/** Events published by the identity domain. Add entries; never rename or remove one (add a v2 instead). */
export const identityEvents = {
  'identity.account-deleted.v1': defineEvent({
    description:
      "An account was deleted (privacy promise): agents removes the account's agents (announcing agents.agent-deleted.v1 for each, so ingestion and retrieval remove data and artifacts), team rows and shares; billing keeps only anonymous monthly totals of its usage.",
    schema: accountDeletedSchema,
    subscribers: ['agents', 'billing'],
    keyField: 'userId',
  }),
} satisfies EventRegistry;
