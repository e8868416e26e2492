import type { IngestionTaskDto } from '@gaia/contracts';
import type { ProcessingTaskEntity } from '@gaia/ingestion/data-access';

export function toTaskDto(t: ProcessingTaskEntity): IngestionTaskDto {
  return {
    id: t.id,
    status: t.status,
    progress: Math.max(0, Math.min(100, Math.round(t.progress))),
    message: t.message,
    estimated_processing_time: t.estimatedProcessingTime,
    total_pages: t.totalPages,
    total_files: t.totalFiles,
    successful_files: t.successfulFiles,
    text_blocks_extracted: t.textBlocksExtracted,
    created_at: t.createdAt.toISOString(),
    model_id: t.agentId,
    errors: t.errors,
  };
}
