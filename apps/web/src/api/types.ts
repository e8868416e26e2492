/** HTTP DTOs of docs/api-surface.md, as the web app sees them. */

/** Usage and plan limits: the one copy is in the contracts (types only, nothing of them is bundled). */
export type { KeyUsageDto, PlanId, UsageSummaryDto, UntranslatedSpan } from '@gaia/contracts';
import type { UntranslatedSpan } from '@gaia/contracts';

export type EngineKind = 'builtin' | 'llm';
export type ProcessingStatus = 'PROCESSING' | 'COMPLETED' | 'FAILED';

export interface AgentDto {
  id: string;
  src_lang: string;
  tgt_lang: string;
  custom_prompt: string;
  core_memory: string;
  learned_memory?: string;
  public: boolean;
  created_at: string;
  uid: string;
  sharedWithEmails: string[];
  document_source?: string | null;
  processing_task_id?: string | null;
  processing_status?: ProcessingStatus | null;
  processing_error?: string | null;
  document_count?: number;
  text_blocks_extracted?: number;
  pair_count?: number;
  engine?: EngineKind;
}

export interface TaskDto {
  id: string;
  status: ProcessingStatus;
  progress: number;
  message: string;
  estimated_processing_time: number;
  total_pages: number;
  total_files: number;
  successful_files: number;
  text_blocks_extracted: number;
  created_at: string;
  model_id: string;
  errors: { file: string; message: string }[];
}

export interface UserDto {
  uid: string;
  email: string;
  fullName: string | null;
  displayName: string | null;
  accountType: 'Standard';
  creationTime: string;
  lastSignInTime: string | null;
  plan: string;
  /** False until the user opened the verification link. */
  emailVerified?: boolean;
}

export interface PublicConfigDto {
  publicApiKey: string;
  oidcEnabled: boolean;
  oidcProviderName: string | null;
}

export interface ApiKeyDto {
  key_id: string;
  name: string;
  prefix: string;
  created_at: string;
  revoked: boolean;
}



export interface TeamMemberDto {
  id: string;
  name: string;
  email: string;
  role: 'Editor';
  status: 'invited' | 'active';
  addedAt: string;
}

export interface TranslateRequest {
  text: string;
  model_id: string;
  src_lang: string;
  tgt_lang: string;
}

/** One `data: {json}` line of the translate stream (spec §7), also the Socket.IO `translation_event`. */
export type TranslationEvent =
  | { type: 'status'; message: string }
  | { type: 'translation_chunk'; content: string }
  | { type: 'translation_complete'; final_translation: string; response_time: number; source_text?: string; confidence?: number; untranslated?: UntranslatedSpan[] }
  | { type: 'error'; message: string };

/** Non-streamed translate answer. */
export interface TranslateJsonResponse {
  success: boolean;
  data?: { translation: string; raw_translation?: string };
  confidence?: number;
  untranslated?: UntranslatedSpan[];
  source_text?: string;
  response_time?: number;
  source_language?: string;
  target_language?: string;
  error?: string;
}
