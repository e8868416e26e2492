import { z } from 'zod';
import { defineEvent, type EventRegistry } from './define';
import { learnedQualitySchema } from '../quality/quality.contracts';

export const retrievalBuildProgressSchema = z.object({
  agentId: z.string(),
  taskId: z.string().nullable(),
  /** Dataset version being learned (ingestion.pairs-stored.v1 `version`). */
  version: z.string(),
  /** 0–1 of the learning step. */
  fraction: z.number().min(0).max(1),
  message: z.string(),
});

export const agentLearnedSchema = z.object({
  agentId: z.string(),
  taskId: z.string().nullable(),
  version: z.string(),
  /** FILE_STORAGE key of the artifact (model + hybrid index, `GAIAART1` container). */
  artifactKey: z.string(),
  /** Readable summary of the learned core memory (agent.learned_memory). */
  learnedSummary: z.string(),
  pairCount: z.number().int().nonnegative(),
  stats: z.object({
    srcVocab: z.number().int(),
    tgtVocab: z.number().int(),
    phrasePairs: z.number().int(),
    charRatio: z.number(),
    trainingMs: z.number(),
  }),
  learnedAt: z.string(),
  /** Held-out quality of the version: not set any more (retrieval.agent-quality-measured.v1 carries it); kept optional for events already stored. */
  quality: learnedQualitySchema.optional(),
});
export type AgentLearnedV1 = z.infer<typeof agentLearnedSchema>;

/** The quality report of a ready version, measured after it was announced: the learned fields again, with `quality`. */
export const agentQualityMeasuredSchema = agentLearnedSchema.extend({ quality: learnedQualitySchema });
export type AgentQualityMeasuredV1 = z.infer<typeof agentQualityMeasuredSchema>;

export const agentBuildFailedSchema = z.object({
  agentId: z.string(),
  taskId: z.string().nullable(),
  version: z.string(),
  message: z.string(),
});

/** Events published by the retrieval domain. Add entries; never rename or remove one (add a v2 instead). */
export const retrievalEvents = {
  'retrieval.build-progress.v1': defineEvent({
    description: 'Learning/indexing progress of an agent version; ingestion maps it onto the task progress.',
    schema: retrievalBuildProgressSchema,
    subscribers: ['ingestion'],
    keyField: 'agentId',
  }),
  'retrieval.agent-learned.v1': defineEvent({
    description:
      'An agent version is indexed and its core memory learned (the agent is ready): ingestion completes the task, agents records learned_memory and the artifact, translation serves the new version.',
    schema: agentLearnedSchema,
    subscribers: ['ingestion', 'agents'],
    keyField: 'agentId',
  }),
  'retrieval.agent-quality-measured.v1': defineEvent({
    description:
      'The quality report of a ready version, measured on its held-out pairs after agent-learned (docs/adr/0006): agents stores the report, translation runs the LLM A/B of the held-out pairs when an LLM is configured.',
    schema: agentQualityMeasuredSchema,
    subscribers: ['agents', 'translation'],
    keyField: 'agentId',
  }),
  'retrieval.build-failed.v1': defineEvent({
    description: 'Learning an agent version failed for good: ingestion fails the task with the message.',
    schema: agentBuildFailedSchema,
    subscribers: ['ingestion', 'agents'],
    keyField: 'agentId',
  }),
} satisfies EventRegistry;
