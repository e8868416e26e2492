/** Row shapes of the ingestion tables (plain SQL repositories; TypeORM runs the migrations). */
export type TaskStatus = 'PROCESSING' | 'COMPLETED' | 'FAILED';

export interface ProcessingTaskEntity {
  id: string;
  agentId: string;
  ownerId: string;
  mode: 'create' | 'update';
  srcLang: string;
  tgtLang: string;
  status: TaskStatus;
  progress: number;
  message: string;
  estimatedProcessingTime: number;
  totalPages: number;
  totalFiles: number;
  successfulFiles: number;
  textBlocksExtracted: number;
  errors: Array<{ file: string; message: string }>;
  /** Set once the pairs are stored and handed to retrieval (ingestion.pairs-stored.v1 version); the task then waits for learning. */
  pairsVersion: string | null;
  /** Pairs of the agent when they were stored. */
  pairCount: number;
  createdAt: Date;
}

export type FileStatus = 'pending' | 'done' | 'failed' | 'merged';

export interface UploadedFileEntity {
  id: string;
  taskId: string;
  agentId: string;
  idx: number;
  filename: string;
  storageKey: string;
  size: number;
  status: FileStatus;
  /** Moses: index of the other half (this row reads both; the other is 'merged'). */
  companionIdx: number | null;
  format: string | null;
  error: string | null;
  pairsAdded: number;
  textBlocks: number;
  pages: number;
}

export interface NormalizedPairEntity {
  agentId: string;
  /** sha256(source \0 target): the agent-wide de-duplication key. */
  pairHash: string;
  /** Global order: task creation, file index, position in file. */
  ord: number;
  source: string;
  target: string;
  taskId: string;
  fileIdx: number;
}
