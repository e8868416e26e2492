import { z } from 'zod';
import { defineEvent, type EventRegistry } from './define';
import { ingestionTaskSchema } from '../rpc/ingestion.rpc';

export const ingestionTaskStartedSchema = z.object({
  taskId: z.string(),
  agentId: z.string(),
  ownerId: z.string(),
  mode: z.enum(['create', 'update']),
  /** Lower-cased. */
  srcLang: z.string(),
  tgtLang: z.string(),
  customPrompt: z.string(),
  coreMemory: z.string(),
  totalFiles: z.number().int(),
  /** Original file names, in upload order (AgentDto.document_source). */
  filenames: z.array(z.string()),
  createdAt: z.string(),
});

export const ingestionTaskProgressSchema = z.object({
  agentId: z.string(),
  ownerId: z.string(),
  task: ingestionTaskSchema,
});

export const ingestionPairsStoredSchema = z.object({
  agentId: z.string(),
  taskId: z.string(),
  srcLang: z.string(),
  tgtLang: z.string(),
  /** Every pair of the agent after this task, JSONL `{"id","source","target"}` in FILE_STORAGE. */
  pairsKey: z.string(),
  /** Only the pairs this task added (same format), for incremental indexing/learning. */
  addedKey: z.string(),
  pairCount: z.number().int(),
  addedCount: z.number().int(),
  /** Changes with every stored version (artifacts version for retrieval/engine). */
  version: z.string(),
});

export const ingestionTaskFinishedSchema = z.object({
  agentId: z.string(),
  ownerId: z.string(),
  taskId: z.string(),
  status: z.enum(['COMPLETED', 'FAILED']),
  /** 'Processed X of Y files successfully!' or the failure reason. */
  message: z.string(),
  processingError: z.string().nullable(),
  documentCount: z.number().int(),
  textBlocksExtracted: z.number().int(),
  pairCount: z.number().int(),
  filenames: z.array(z.string()),
  task: ingestionTaskSchema,
});

/** Events published by the ingestion domain. Add entries; never rename or remove one (add a v2 instead). */
export const ingestionEvents = {
  'ingestion.task-started.v1': defineEvent({
    description: 'An upload was accepted: the agents service creates the agent (mode create) or marks it processing (processing_task_id).',
    schema: ingestionTaskStartedSchema,
    subscribers: ['agents'],
    keyField: 'agentId',
  }),
  'ingestion.task-progress.v1': defineEvent({
    description: 'Task progress changed (TaskDto); the gateway pushes it as task_progress to the owner and editors.',
    schema: ingestionTaskProgressSchema,
    subscribers: ['gateway'],
    keyField: 'agentId',
  }),
  'ingestion.pairs-stored.v1': defineEvent({
    description:
      "An agent's normalised pairs changed: retrieval indexes them and learns the core memory, then answers retrieval.agent-learned.v1 (or build-failed) with the same version; ingestion then completes the task.",
    schema: ingestionPairsStoredSchema,
    subscribers: ['retrieval'],
    keyField: 'agentId',
  }),
  'ingestion.task-finished.v1': defineEvent({
    description: 'A task ended (COMPLETED or FAILED): the agents service updates processing_status/processing_error/document_count/text_blocks_extracted.',
    schema: ingestionTaskFinishedSchema,
    subscribers: ['agents', 'gateway'],
    keyField: 'agentId',
  }),
} satisfies EventRegistry;
