import { publicAgentDtoSchema, type AgentDto, type AgentRecord, type AgentView, type PublicAgentDto } from '@gaia/contracts';
import type { AgentEntity } from '@gaia/agents/data-access';

export function toAgentDto(a: AgentEntity): AgentDto {
  return {
    id: a.id,
    src_lang: a.srcLang,
    tgt_lang: a.tgtLang,
    custom_prompt: a.customPrompt,
    core_memory: a.coreMemory,
    learned_memory: a.learnedMemory,
    public: a.public,
    created_at: a.createdAt.toISOString(),
    uid: a.ownerId,
    sharedWithEmails: [...a.sharedWithEmails],
    document_source: a.documentSource,
    processing_task_id: a.processingTaskId,
    processing_status: a.processingStatus,
    processing_error: a.processingError,
    document_count: a.documentCount,
    text_blocks_extracted: a.textBlocksExtracted,
    pair_count: a.pairCount,
    engine: a.engine,
  };
}

/** The public projection (no owner uid, editors' emails or owner notes). */
export const toPublicAgentDto = (a: AgentEntity): PublicAgentDto => publicAgentDtoSchema.parse(toAgentDto(a));

/** The one rule of what a caller sees: owners and editors through a session the full record, anyone else the public projection. */
export function toAgentView(a: AgentEntity, role: 'owner' | 'editor' | 'reader', channel: 'session' | 'api-key'): AgentView {
  return channel === 'session' && role !== 'reader' ? toAgentDto(a) : toPublicAgentDto(a);
}

export function toAgentRecord(a: AgentEntity): AgentRecord {
  return {
    ...toAgentDto(a),
    artifact_version: a.artifactVersion,
    artifact_key: a.artifactKey,
    updated_at: a.updatedAt.toISOString(),
    feedback_version: a.feedbackVersion ?? 0,
  };
}

/** Merges file names into document_source (', '-joined, no duplicates, upload order). */
export function mergeDocumentSource(current: string | null, filenames: readonly string[]): string | null {
  const names = current ? current.split(', ').filter(Boolean) : [];
  for (const f of filenames) if (f && !names.includes(f)) names.push(f);
  return names.length ? names.join(', ') : null;
}
