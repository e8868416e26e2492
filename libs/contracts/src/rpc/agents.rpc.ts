import { z } from 'zod';
import { defineRpc, type RpcRegistry } from './define';
import { agentQualitySchema, agentQualitySummarySchema } from '../quality/quality.contracts';
import { engineKindSchema } from './translation.rpc';

/**
 * Agents (spec collection `sota`) and teams. Every call that acts for a person takes a `viewer`
 * (`{uid, email}` of the session user, or the API key's owner); the agents service enforces the rules:
 * - read: public agents for anyone (viewer may be null); private ones only for the owner and editors
 *   (viewer email in `sharedWithEmails`), otherwise 404 `Model not found.`;
 * - update: owner or editor (403 for a reader of a public agent, 404 when it cannot be read);
 * - visibility and delete: owner only (403 `Only the owner can …` for editors).
 */
export const agentViewerSchema = z.object({
  uid: z.string().min(1),
  /** Email of the signed-in user ('' when unknown); compared lower-cased with sharedWithEmails. */
  email: z.string().default(''),
});
export type AgentViewer = z.input<typeof agentViewerSchema>;

export const agentProcessingStatusSchema = z.enum(['PROCESSING', 'COMPLETED', 'FAILED']);

/** AgentDto of docs/api-surface.md (snake_case, as the web app reads it). */
export const agentDtoSchema = z.object({
  id: z.string(),
  src_lang: z.string(),
  tgt_lang: z.string(),
  /** Shown as the description. */
  custom_prompt: z.string(),
  /** Owner notes. */
  core_memory: z.string(),
  /** Summary learned from the data (retrieval.agent-learned). */
  learned_memory: z.string(),
  public: z.boolean(),
  /** ISO time. */
  created_at: z.string(),
  /** Owner uid. */
  uid: z.string(),
  /** Lower-cased editor emails. */
  sharedWithEmails: z.array(z.string()),
  /** Uploaded file names joined with ', ' (null when none). */
  document_source: z.string().nullable(),
  processing_task_id: z.string().nullable(),
  processing_status: agentProcessingStatusSchema.nullable(),
  processing_error: z.string().nullable(),
  document_count: z.number().int(),
  text_blocks_extracted: z.number().int(),
  pair_count: z.number().int(),
  engine: engineKindSchema,
  /** Quality report of the current version with the history across versions (single-agent reads only; null before the first report). */
  quality: agentQualitySchema.nullable().optional(),
  /** The newest report's summary (chrF, BLEU, margin, size category): in the owner's and editors' agent list only (agents/mine); null before the first report. */
  quality_summary: agentQualitySummarySchema.nullable().optional(),
});
export type AgentDto = z.infer<typeof agentDtoSchema>;

/**
 * What anyone but the owner and editors sees of an agent (anonymous callers, API keys, readers of a public
 * agent): no owner uid, no editors' emails, no owner notes (core_memory). Parsing a full AgentDto with it
 * drops those fields.
 */
export const publicAgentDtoSchema = agentDtoSchema.omit({ uid: true, sharedWithEmails: true, core_memory: true, quality_summary: true });
export type PublicAgentDto = z.infer<typeof publicAgentDtoSchema>;
/** The full record for owners and editors, the public projection for everyone else. */
export const agentViewSchema = z.union([agentDtoSchema, publicAgentDtoSchema]);
export type AgentView = z.infer<typeof agentViewSchema>;

/** Internal view (no access check) for other services, e.g. the translation service's agent directory. */
export const agentRecordSchema = agentDtoSchema.extend({
  /** Version of the learned artifacts (retrieval.agent-learned); null until learned. */
  artifact_version: z.string().nullable(),
  artifact_key: z.string().nullable(),
  updated_at: z.string(),
  /** Changes with every correction or glossary change (agents.feedback-page.v1): the translation service's cache key. */
  feedback_version: z.number().int().nonnegative().default(0),
});
export type AgentRecord = z.infer<typeof agentRecordSchema>;

export const agentPatchSchema = z.object({
  src_lang: z.string().optional(),
  tgt_lang: z.string().optional(),
  custom_prompt: z.string().optional(),
  core_memory: z.string().optional(),
  engine: engineKindSchema.optional(),
});
export type AgentPatch = z.infer<typeof agentPatchSchema>;

export const teamMemberDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Lower-cased. */
  email: z.string(),
  role: z.literal('Editor'),
  /** invited: mailed a single-use link, grants nothing yet; active: accepted by the signed-in, verified owner of the email. */
  status: z.enum(['invited', 'active']),
  /** ISO time. */
  addedAt: z.string(),
});
export type TeamMemberDto = z.infer<typeof teamMemberDtoSchema>;

const viewerRequired = z.object({ agentId: z.string().min(1), viewer: agentViewerSchema });

/** Calls served by the agents service. Add entries; never rename or remove one (add a v2 instead). */
export const agentsRpc = {
  'agents.get.v1': defineRpc({
    service: 'agents',
    description:
      'One agent as the viewer may see it (viewer null = anonymous): the full record for the owner and editors, the public projection (PublicAgentDto) for readers and for `channel` api-key. 404 `Model not found.` when unknown, deleted or private and not owner/editor.',
    request: z.object({
      agentId: z.string().min(1),
      viewer: agentViewerSchema.nullable().default(null),
      /** How the viewer came: an API key always gets the public projection (keys translate, they do not manage). */
      channel: z.enum(['session', 'api-key']).default('session'),
    }),
    response: agentViewSchema,
  }),
  'agents.access.v1': defineRpc({
    service: 'agents',
    description:
      "The viewer's role on an agent and the agent, after checking `need` (read: public/owner/editor; edit: owner/editor; owner: owner only). Same errors as get/update/delete. Use before downloads, update-model, task subscriptions, translations (with `record`: the internal record too, handed to translation.translate.v1).",
    request: z.object({
      agentId: z.string().min(1),
      viewer: agentViewerSchema.nullable().default(null),
      need: z.enum(['read', 'edit', 'owner']).default('read'),
      /** Also answer the internal record (artifact version…): a translation checks access and resolves the agent in one call. */
      record: z.boolean().optional(),
    }),
    response: z.object({ role: z.enum(['owner', 'editor', 'reader']), agent: agentDtoSchema, record: agentRecordSchema.optional() }),
  }),
  'agents.resolve.v1': defineRpc({
    service: 'agents',
    description:
      'Internal (no access check): the stored agent with its artifact version, or null when unknown or deleted. For the translation service and other back ends.',
    request: z.object({ agentId: z.string().min(1) }),
    response: z.object({ agent: agentRecordSchema.nullable() }),
  }),
  'agents.list-public.v1': defineRpc({
    service: 'agents',
    description: 'Public agents, newest first, as their public projection (owners read theirs in full through agents.list-mine.v1).',
    request: z.object({
      limit: z.number().int().min(1).max(1000).default(200),
      /** Keyset page: the agents listed after this one (newest first, then id). */
      afterId: z.string().min(1).max(200).nullable().optional(),
    }),
    response: z.object({ agents: z.array(publicAgentDtoSchema) }),
  }),
  'agents.list-mine.v1': defineRpc({
    service: 'agents',
    description:
      "The viewer's own agents and those shared with the viewer's email (sharedWithEmails): one newest-first sequence split into owned and shared; " +
      'a keyset page of `limit` agents after `afterId` when given, with `nextAfterId` (null on the last page).',
    request: z.object({
      viewer: agentViewerSchema,
      limit: z.number().int().min(1).max(1000).optional(),
      afterId: z.string().min(1).max(200).nullable().optional(),
    }),
    response: z.object({ owned: z.array(agentDtoSchema), shared: z.array(agentDtoSchema), nextAfterId: z.string().nullable().optional() }),
  }),
  'agents.update.v1': defineRpc({
    service: 'agents',
    description:
      'Edits languages (lower-cased), description (custom_prompt), owner notes (core_memory), engine. Owner or editor. A given language or description must not be blank (400 `Please fill in all required fields`).',
    request: viewerRequired.extend({ patch: agentPatchSchema }),
    response: agentDtoSchema,
  }),
  'agents.set-visibility.v1': defineRpc({
    service: 'agents',
    description: 'Sets public true/false. Owner only (403 for editors).',
    request: viewerRequired.extend({ public: z.boolean() }),
    response: agentDtoSchema,
  }),
  'agents.delete.v1': defineRpc({
    service: 'agents',
    description:
      'Deletes (tombstones) an agent; it is never served again. Owner only (403 for editors). Emits agents.agent-deleted.v1 so ingestion and retrieval remove tasks, files, pairs, index and memory. Deleting an already deleted agent answers 404.',
    request: viewerRequired,
    response: z.object({ success: z.literal(true) }),
  }),
  'agents.team-list.v1': defineRpc({
    service: 'agents',
    description: "The owner's team members (editors), oldest first.",
    request: z.object({ ownerId: z.string().min(1) }),
    response: z.object({ members: z.array(teamMemberDtoSchema) }),
  }),
  'agents.team-invite.v1': defineRpc({
    service: 'agents',
    description:
      "Invites an editor (role Editor, status invited) with a single-use link whose token only the caller knows (the agents service stores its SHA-256). A pending invitation grants nothing: the email joins sharedWithEmails once the invitee accepts (agents.team-accept.v1). 400 'Please fill in all fields.' / 'Please enter a valid email address.', 409 when already a member.",
    request: z.object({
      ownerId: z.string().min(1),
      ownerEmail: z.string().default(''),
      name: z.string(),
      email: z.string(),
      tokenHash: z.string().regex(/^[0-9a-f]{64}$/u),
    }),
    response: teamMemberDtoSchema,
  }),
  'agents.team-accept.v1': defineRpc({
    service: 'agents',
    description:
      "Accepts an invitation by its token hash for a signed-in viewer whose email is verified (the caller checks verification): the member becomes active (the token is used up) and the email joins sharedWithEmails of every agent of the owner, now and later. 404 'This invitation link is invalid, expired or already used.', 403 when the viewer's email is not the invited one.",
    request: z.object({ tokenHash: z.string().regex(/^[0-9a-f]{64}$/u), viewer: agentViewerSchema }),
    response: teamMemberDtoSchema,
  }),
  'agents.team-remove.v1': defineRpc({
    service: 'agents',
    description: "Removes a member: the email leaves sharedWithEmails of every agent of the owner. 404 when not the owner's member.",
    request: z.object({ ownerId: z.string().min(1), memberId: z.string().min(1) }),
    response: z.object({ removed: z.literal(true) }),
  }),
} satisfies RpcRegistry;
