import { Module } from '@nestjs/common';
import { FileRepository, PairRepository, TaskRepository } from '@gaia/ingestion/data-access';
import { IngestionRpcHandlers, ProcessTaskJob } from './ingestion.handlers';
import { ProcessTaskUseCase } from './process-task.use-case';
import { StartProcessingUseCase } from './start-processing.use-case';
import { AgentDataUseCase, GetTaskUseCase } from './task-queries.use-case';

/**
 * The ingestion service: RPCs `ingestion.*.v1`, the durable `ingestion.process-task` job, and the
 * events `ingestion.task-started/task-progress/pairs-stored/task-finished.v1`. Needs CoreModule
 * (database with `ingestionSchema`, messaging, FILE_STORAGE). Optionally provide VISION_EXTRACTOR.
 */
@Module({
  providers: [
    TaskRepository,
    FileRepository,
    PairRepository,
    StartProcessingUseCase,
    ProcessTaskUseCase,
    GetTaskUseCase,
    AgentDataUseCase,
    IngestionRpcHandlers,
    ProcessTaskJob,
  ],
  exports: [StartProcessingUseCase, GetTaskUseCase, AgentDataUseCase],
})
export class IngestionModule {}
