import { z } from 'zod';
import { defineEvent, type EventRegistry } from './define';

/** Diagnostics: used by the messaging self-tests (multi-process exactly-once checks). */
export const diagnosticsEvents = {
  'diagnostics.probe.v1': defineEvent({
    description: 'A numbered probe; the probe consumer records it once per id.',
    schema: z.object({ seq: z.number().int().nonnegative(), runId: z.string().min(1) }),
    subscribers: ['probe'],
    keyField: 'runId',
  }),
} satisfies EventRegistry;
