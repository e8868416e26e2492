import { Module } from '@nestjs/common';
import { FileRepository, PairRepository, TaskRepository } from '@gaia/ingestion/data-access';
import { IngestionEventListener, IngestionRpcHandlers, ProcessTaskJob } from './ingestion.handlers';
import { LearningOutcomeUseCase } from './learning-outcome.use-case';
import { TaskLifecycle } from './task-lifecycle.service';
import { ProcessTaskUseCase } from './process-task.use-case';
import { StartProcessingUseCase } from './start-processing.use-case';
import { AgentDataUseCase, GetTaskUseCase } from './task-queries.use-case';

/**
 * The ingestion service: RPCs `ingestion.*.v1`, the durable `ingestion.process-task` job, the events
 * `ingestion.task-started/task-progress/pairs-stored/task-finished.v1`, and listeners of
 * `retrieval.build-progress/agent-learned/build-failed.v1` (task completion) and `agents.agent-deleted.v1`. Needs CoreModule
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
    TaskLifecycle,
    LearningOutcomeUseCase,
    IngestionRpcHandlers,
    ProcessTaskJob,
    IngestionEventListener,
  ],
  exports: [StartProcessingUseCase, GetTaskUseCase, AgentDataUseCase],
})
export class IngestionModule {}
