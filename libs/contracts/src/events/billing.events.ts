import { z } from 'zod';
import { defineEvent, type EventRegistry } from './define';

export const planChangedSchema = z.object({
  userId: z.string(),
  plan: z.enum(['free', 'starter', 'enterprise']),
  previousPlan: z.enum(['free', 'starter', 'enterprise']),
  changedAt: z.string(),
});

/** Events published by the billing domain. Add entries; never rename or remove one (add a v2 instead). */
export const billingEvents = {
  'billing.plan-changed.v1': defineEvent({
    description: "A user's plan changed (immediate effect). Subscribers: ask the billing owner to add yours (e.g. gateway for UserDto.plan).",
    schema: planChangedSchema,
    subscribers: [],
    keyField: 'userId',
  }),
} satisfies EventRegistry;
