import { z } from 'zod';
import { defineRpc, type RpcRegistry } from './define';

/**
 * Ingestion limits (also exported by `@gaia/ingestion/parsers`, which re-checks them): the gateway
 * rejects oversize uploads before storing anything (413 / 400 with these numbers in the message).
 */
export const INGESTION_MAX_FILE_BYTES = 25 * 1024 * 1024;
export const INGESTION_MAX_FILES_PER_UPLOAD = 20;
export const INGESTION_MAX_PAIRS_PER_AGENT = 200_000;

/**
 * Where the gateway writes an uploaded original (FILE_STORAGE) before calling `ingestion.start-processing.v1`:
 * `uploads/{uploadId}/{index}`. The original is durable before the task is acknowledged.
 */
export const ingestionUploadKey = (uploadId: string, index: number): string => `uploads/${uploadId}/${index}`;

export const taskStatusSchema = z.enum(['PROCESSING', 'COMPLETED', 'FAILED']);

/** TaskDto of docs/api-surface.md (snake_case, as the web app reads it). */
export const ingestionTaskSchema = z.object({
  id: z.string(),
  status: taskStatusSchema,
  progress: z.number().int().min(0).max(100),
  message: z.string(),
  estimated_processing_time: z.number().int().nonnegative(),
  total_pages: z.number().int().nonnegative(),
  total_files: z.number().int().nonnegative(),
  successful_files: z.number().int().nonnegative(),
  text_blocks_extracted: z.number().int().nonnegative(),
  created_at: z.string(),
  model_id: z.string(),
  errors: z.array(z.object({ file: z.string(), message: z.string() })),
});
export type IngestionTaskDto = z.infer<typeof ingestionTaskSchema>;

export const uploadedFileRefSchema = z.object({
  /** FILE_STORAGE key the gateway wrote the bytes to (see ingestionUploadKey). */
  key: z.string().min(1),
  filename: z.string().min(1).max(512),
  size: z.number().int().nonnegative(),
});

export const startProcessingRequestSchema = z.object({
  /** 'create' = documents/process (new agent), 'update' = update-model (adds files to an agent). */
  mode: z.enum(['create', 'update']),
  /** The agent; for 'create' the caller may pass a fresh id, otherwise ingestion makes one. */
  agentId: z.string().min(1).optional(),
  ownerId: z.string().min(1),
  /** Languages as typed; ingestion stores them lower-cased. */
  srcLang: z.string().trim().min(1),
  tgtLang: z.string().trim().min(1),
  customPrompt: z.string().default(''),
  coreMemory: z.string().default(''),
  files: z.array(uploadedFileRefSchema).min(1),
  /** Same key → same task (idempotent retries of the HTTP request). */
  idempotencyKey: z.string().min(1).optional(),
  requestId: z.string().optional(),
});

/** A corpus of the public catalogue (snake_case, as the web app reads it). */
export const publicCorpusSchema = z.object({
  name: z.string(),
  version: z.string(),
  pairs: z.number().int(),
  size_bytes: z.number().int(),
  license: z.string(),
  format: z.enum(['moses', 'tmx']),
});
export type PublicCorpusDto = z.infer<typeof publicCorpusSchema>;

export const ingestionRpc = {
  'ingestion.start-processing.v1': defineRpc({
    service: 'ingestion',
    description:
      'Registers an upload (originals already in FILE_STORAGE) as a processing task and answers at once; the work runs as a durable job. Errors: 400/413 limits.',
    request: startProcessingRequestSchema,
    response: z.object({ task_id: z.string(), model_id: z.string(), total_files: z.number().int() }),
  }),
  'ingestion.get-task.v1': defineRpc({
    service: 'ingestion',
    description: 'One processing task (TaskDto) plus its owner, for GET /api/documents/status and Socket.IO resubscription. 404 when unknown.',
    request: z.object({ taskId: z.string().min(1) }),
    response: z.object({ task: ingestionTaskSchema, ownerId: z.string(), agentId: z.string() }),
  }),
  'ingestion.prepare-download.v1': defineRpc({
    service: 'ingestion',
    description:
      'Builds dataset_{id}_files.zip (originals + normalised pairs as JSONL and TMX) into FILE_STORAGE and answers its key; the caller checks access (public, owner, editors) first. 404 when the agent has no data.',
    request: z.object({ agentId: z.string().min(1) }),
    response: z.object({ key: z.string(), filename: z.string(), size: z.number().int(), pairCount: z.number().int(), fileCount: z.number().int() }),
    timeoutMs: 120_000,
  }),
  'ingestion.rebuild-agent.v1': defineRpc({
    service: 'ingestion',
    description:
      "Operator rebuild: announces the agent's latest stored pairs again (ingestion.pairs-stored.v1) under a fresh version, so retrieval learns a new artifact. 404 when the agent has no learned data.",
    request: z.object({ agentId: z.string().min(1).max(200) }),
    response: z.object({ version: z.string(), pairCount: z.number().int() }),
  }),
  'ingestion.list-public-corpora.v1': defineRpc({
    service: 'ingestion',
    description:
      'Public parallel corpora for a language pair from the OPUS-style catalogue (PUBLIC_CORPORA_URL): name, version, pairs, size, license, format (moses or tmx zip). 502 when the catalogue is unreachable.',
    request: z.object({ srcLang: z.string().trim().min(1).max(20), tgtLang: z.string().trim().min(1).max(20) }),
    response: z.object({ corpora: z.array(publicCorpusSchema) }),
    timeoutMs: 120_000,
  }),
  'ingestion.import-public-corpus.v1': defineRpc({
    service: 'ingestion',
    description:
      "Downloads a listed corpus (Moses or TMX zip) and ingests it through the normal path: a new agent of ownerId (mode create) or the owner's agentId (mode update); the corpus, its version and license are recorded in the agent's description. 404 unknown corpus or agent, 403 not the owner, 413 too large.",
    request: z.object({
      ownerId: z.string().min(1).max(200),
      srcLang: z.string().trim().min(1).max(20),
      tgtLang: z.string().trim().min(1).max(20),
      corpus: z.string().min(1).max(200),
      format: z.enum(['moses', 'tmx']).optional(),
      agentId: z.string().min(1).max(200).optional(),
    }),
    response: z.object({ task_id: z.string(), model_id: z.string(), corpus: publicCorpusSchema }),
    timeoutMs: 300_000,
  }),
} satisfies RpcRegistry;

export type StartProcessingRequest = z.input<typeof startProcessingRequestSchema>;
