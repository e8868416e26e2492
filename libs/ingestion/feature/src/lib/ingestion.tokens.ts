import type { VisionExtractor } from '@gaia/ingestion/parsers';

/** Optional: a vision-capable model that reads scanned pages and images. Without it those files are reported, not dropped. */
export const VISION_EXTRACTOR = Symbol('VISION_EXTRACTOR');
export type VisionExtractorPort = VisionExtractor;

export const PROCESS_TASK_JOB = 'ingestion.process-task';
/** Attempts of the job before the task is failed (transient errors such as storage hiccups are retried). */
export const PROCESS_TASK_MAX_ATTEMPTS = 10;

/** Storage layout of what ingestion writes (originals stay where the gateway put them). */
export const storageKeys = {
  agentPrefix: (agentId: string) => `ingestion/${agentId}/`,
  pairsSnapshot: (agentId: string, taskId: string) => `ingestion/${agentId}/pairs/${taskId}.jsonl`,
  addedPairs: (agentId: string, taskId: string) => `ingestion/${agentId}/added/${taskId}.jsonl`,
  /** Prepared dataset zips of the agent (one per dataset fingerprint; the newest replaces the others). */
  downloadsPrefix: (agentId: string) => `ingestion/${agentId}/downloads/`,
  download: (agentId: string, fingerprint: string) => `ingestion/${agentId}/downloads/dataset_${agentId}_${fingerprint}.zip`,
  /** What the answer of a prepared zip carries besides its key (size, counts); written after the zip, so it marks the zip complete. */
  downloadMeta: (agentId: string, fingerprint: string) => `ingestion/${agentId}/downloads/dataset_${agentId}_${fingerprint}.json`,
};
