import { z } from 'zod';
import { defineRpc, type RpcRegistry } from './define';
import { agentViewerSchema } from './agents.rpc';
import { FIELD_MAX_LENGTH } from '../http/field-limits';

/**
 * Owners' feedback on an agent (issue 14): corrections ("Suggest a better translation") and the glossary
 * (term → required translation). Both are the agent's own data, stored by the agents service; every call that
 * acts for a person takes a `viewer` and needs `edit` rights (owner or editor: 404 when the agent cannot be
 * read, 403 for a reader of a public agent).
 */

/** Most corrections an agent keeps (oldest must be undone before more are added). */
export const CORRECTIONS_MAX_PER_AGENT = 5_000;
/** Most glossary terms an agent keeps (and most entries one import adds). */
export const GLOSSARY_MAX_TERMS = 5_000;

export const correctionDtoSchema = z.object({
  id: z.string(),
  /** The source text as it was translated. */
  source: z.string(),
  /** The translation the agent gave. */
  translation: z.string(),
  /** The better translation the owner or editor wrote. */
  corrected: z.string(),
  /** Who suggested it (uid and lower-cased email). */
  author_uid: z.string(),
  author_email: z.string(),
  /** ISO time. */
  created_at: z.string(),
});
export type CorrectionDto = z.infer<typeof correctionDtoSchema>;

export const glossaryTermDtoSchema = z.object({
  id: z.string(),
  /** The source-language term. */
  term: z.string(),
  /** Its required translation. */
  translation: z.string(),
  note: z.string(),
  /** false (default): the term matches whatever its letter case (and the required translation follows the case of the text). */
  case_sensitive: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type GlossaryTermDto = z.infer<typeof glossaryTermDtoSchema>;

export const correctionInputSchema = z.object({
  source: z.string().trim().min(1).max(FIELD_MAX_LENGTH.source),
  translation: z.string().trim().max(FIELD_MAX_LENGTH.translation).default(''),
  corrected: z.string().trim().min(1).max(FIELD_MAX_LENGTH.corrected),
});

export const glossaryTermInputSchema = z.object({
  term: z.string().trim().min(1).max(FIELD_MAX_LENGTH.term),
  translation: z.string().trim().min(1).max(FIELD_MAX_LENGTH.translation),
  note: z.string().trim().max(FIELD_MAX_LENGTH.note).default(''),
  case_sensitive: z.boolean().default(false),
});
export type GlossaryTermInput = z.input<typeof glossaryTermInputSchema>;

export const glossaryImportFormatSchema = z.enum(['csv', 'tsv', 'tbx']);

/** What the translation service needs of an agent's feedback (internal, no access check). */
export const agentFeedbackSchema = z.object({
  /** Changes with every correction or glossary change (also on agents.resolve.v1 `feedback_version`). */
  version: z.number().int().nonnegative(),
  corrections: z.array(z.object({ id: z.string(), source: z.string(), target: z.string() })),
  glossary: z.array(z.object({ term: z.string(), translation: z.string(), case_sensitive: z.boolean() })),
});
export type AgentFeedback = z.infer<typeof agentFeedbackSchema>;

/**
 * Most bytes of corrections and terms (their JSON) one page of agents.feedback-page.v1 / agents.corrections-export-page.v1
 * carries: well below NATS's 1 MiB per message, whatever an agent holds (a page has at least one item).
 */
export const FEEDBACK_PAGE_MAX_BYTES = 256 * 1024;
/** Where the next page starts (opaque; null = the first page). */
const feedbackCursorSchema = z
  .string()
  .min(1)
  .max(FIELD_MAX_LENGTH.id + 2)
  .nullable()
  .default(null);

const onAgent = z.object({ agentId: z.string().min(1).max(FIELD_MAX_LENGTH.id), viewer: agentViewerSchema });
const page = { limit: z.number().int().min(1).max(1000).default(50), afterId: z.string().min(1).max(FIELD_MAX_LENGTH.id).nullable().default(null) };

/** Calls served by the agents service about feedback. Add entries; never rename or remove one. */
export const agentsFeedbackRpc = {
  'agents.corrections-add.v1': defineRpc({
    service: 'agents',
    description:
      'Stores a correction (owner or editor). The next identical request answers it; similar requests get it as an example at once; the next learning run trains on it. Bumps the feedback version. 409 when the agent already holds CORRECTIONS_MAX_PER_AGENT corrections.',
    request: onAgent.extend({ correction: correctionInputSchema }),
    response: correctionDtoSchema,
  }),
  'agents.corrections-list.v1': defineRpc({
    service: 'agents',
    description: 'Corrections of an agent, newest first, a keyset page after `afterId` (owner or editor); `nextAfterId` null on the last page.',
    request: onAgent.extend(page),
    response: z.object({ corrections: z.array(correctionDtoSchema), nextAfterId: z.string().nullable() }),
  }),
  'agents.corrections-undo.v1': defineRpc({
    service: 'agents',
    description: "Removes a correction (owner or editor); the agent answers as before it. 404 'Correction not found.' when it is not this agent's.",
    request: onAgent.extend({ correctionId: z.string().min(1).max(FIELD_MAX_LENGTH.id) }),
    response: z.object({ success: z.literal(true) }),
  }),
  'agents.glossary-list.v1': defineRpc({
    service: 'agents',
    description: 'Glossary of an agent, by term (owner or editor), a keyset page after `afterId`.',
    request: onAgent.extend(page),
    response: z.object({ terms: z.array(glossaryTermDtoSchema), nextAfterId: z.string().nullable() }),
  }),
  'agents.glossary-add.v1': defineRpc({
    service: 'agents',
    description: "Adds a term (owner or editor). 409 'This term is already in the glossary.' when the same term (ignoring case unless case-sensitive) exists.",
    request: onAgent.extend({ term: glossaryTermInputSchema }),
    response: glossaryTermDtoSchema,
  }),
  'agents.glossary-update.v1': defineRpc({
    service: 'agents',
    description: "Replaces a term's fields (owner or editor). 404 'Term not found.'",
    request: onAgent.extend({ termId: z.string().min(1).max(FIELD_MAX_LENGTH.id), term: glossaryTermInputSchema }),
    response: glossaryTermDtoSchema,
  }),
  'agents.glossary-delete.v1': defineRpc({
    service: 'agents',
    description: "Removes a term (owner or editor). 404 'Term not found.'",
    request: onAgent.extend({ termId: z.string().min(1).max(FIELD_MAX_LENGTH.id) }),
    response: z.object({ success: z.literal(true) }),
  }),
  'agents.glossary-import.v1': defineRpc({
    service: 'agents',
    description:
      'Imports terms from CSV, TSV (columns term, translation[, note[, case_sensitive]]; an optional header row) or TBX (XML; DOCTYPE and entities refused). An existing term is updated. 400 with the line or reason when the file is invalid.',
    request: onAgent.extend({ format: glossaryImportFormatSchema, content: z.string().max(FIELD_MAX_LENGTH.glossary_file) }),
    response: z.object({ added: z.number().int(), updated: z.number().int(), total: z.number().int() }),
  }),
  'agents.feedback-page.v1': defineRpc({
    service: 'agents',
    description:
      'Internal (no access check): one page (at most FEEDBACK_PAGE_MAX_BYTES) of the corrections (newest first), then the glossary (by term) of an agent, ' +
      'for the translation and retrieval services; the caller asks again with `next` until it is null, and starts over when `version` changed meanwhile. Empty for an unknown agent.',
    request: z.object({ agentId: z.string().min(1), cursor: feedbackCursorSchema }),
    response: agentFeedbackSchema.extend({ next: z.string().nullable() }),
  }),
  'agents.corrections-export-page.v1': defineRpc({
    service: 'agents',
    description:
      'Internal (no access check): one page (at most FEEDBACK_PAGE_MAX_BYTES) of the corrections of an agent, newest first, for the dataset download; ask again with `next` until it is null, ' +
      'and start over when `version` changed meanwhile (a page continues after the last row of the one before: once that row is deleted, the pages left are empty). Empty for an unknown agent.',
    request: z.object({ agentId: z.string().min(1), cursor: feedbackCursorSchema }),
    response: z.object({ version: z.number().int(), corrections: z.array(correctionDtoSchema), next: z.string().nullable() }),
  }),
} satisfies RpcRegistry;

/** POST /api/agents/:id/corrections body. */
export const correctionBodySchema = correctionInputSchema;
/** POST /api/agents/:id/glossary and PUT /api/agents/:id/glossary/:termId body. */
export const glossaryTermBodySchema = glossaryTermInputSchema;
/** POST /api/agents/:id/glossary/import body: the file's text (UTF-8) and its format. */
export const glossaryImportBodySchema = z.object({ format: glossaryImportFormatSchema, glossary_file: z.string().min(1).max(FIELD_MAX_LENGTH.glossary_file) });
