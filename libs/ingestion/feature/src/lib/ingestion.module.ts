import { Module } from '@nestjs/common';
import {
  FILE_REPOSITORY,
  OpenAiVisionExtractor,
  PAIR_REPOSITORY,
  PostgresFileRepository,
  PostgresPairRepository,
  PostgresTaskRepository,
  PostgresUploadSweepRepository,
  TASK_REPOSITORY,
  UPLOAD_SWEEP_REPOSITORY,
} from '@gaia/ingestion/data-access';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { VISION_EXTRACTOR } from './ingestion.tokens';
import { PublicCorporaUseCase } from './corpora/import-public-corpus.use-case';
import { OpusCatalogueAdapter } from './corpora/opus-catalogue.adapter';
import { PUBLIC_CORPORA } from './corpora/public-corpora.port';
import { IngestionEventListener } from './ingestion-events.listener';
import { IngestionRpcHandlers } from './ingestion.rpc';
import { ProcessTaskJob } from './process-task/process-task.job';
import { LearningOutcomeUseCase } from './learning-outcome/learning-outcome.use-case';
import { TaskLifecycle } from './task-lifecycle.service';
import { ProcessTaskUseCase } from './process-task/process-task.use-case';
import { RebuildAgentUseCase } from './rebuild-agent/rebuild-agent.use-case';
import { StartProcessingUseCase } from './start-processing/start-processing.use-case';
import { SweepUploadsJob } from './sweep-uploads/sweep-uploads.job';
import { SweepUploadsUseCase } from './sweep-uploads/sweep-uploads.use-case';
import { AgentDataUseCase, GetTaskUseCase } from './task-queries/task-queries.use-case';

/** The OPUS catalogue's JSON API (the config's default; module tests without an app config use it too). */
const DEFAULT_PUBLIC_CORPORA_URL = 'https://opus.nlpl.eu/opusapi/';

/**
 * The ingestion service: RPCs `ingestion.*.v1`, the durable `ingestion.process-task` and `ingestion.sweep-unclaimed-uploads` jobs, the events
 * `ingestion.task-started/task-progress/pairs-stored/task-finished.v1`, and listeners of
 * `retrieval.build-progress/agent-learned/build-failed.v1` (task completion) and `agents.agent-deleted.v1`. Needs CoreModule
 * (database with `ingestionSchema`, messaging, FILE_STORAGE, APP_CONFIG).
 */
@Module({
  providers: [
    {
      // Scanned pages and images: read by the vision model when OPENAI_VISION_MODEL is set, else reported per file.
      provide: VISION_EXTRACTOR,
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) =>
        c.OPENAI_VISION_MODEL && (c.OPENAI_API_KEY || c.OPENAI_BASE_URL)
          ? new OpenAiVisionExtractor({ apiKey: c.OPENAI_API_KEY, baseURL: c.OPENAI_BASE_URL, model: c.OPENAI_VISION_MODEL, maxRetries: c.OPENAI_MAX_RETRIES })
          : null,
    },
    {
      // The public corpus catalogue (OPUS JSON API, or a catalogue speaking it).
      provide: PUBLIC_CORPORA,
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => new OpusCatalogueAdapter(c.PUBLIC_CORPORA_URL ?? DEFAULT_PUBLIC_CORPORA_URL),
    },
    PublicCorporaUseCase,
    { provide: TASK_REPOSITORY, useClass: PostgresTaskRepository },
    { provide: FILE_REPOSITORY, useClass: PostgresFileRepository },
    { provide: PAIR_REPOSITORY, useClass: PostgresPairRepository },
    { provide: UPLOAD_SWEEP_REPOSITORY, useClass: PostgresUploadSweepRepository },
    StartProcessingUseCase,
    ProcessTaskUseCase,
    GetTaskUseCase,
    AgentDataUseCase,
    RebuildAgentUseCase,
    TaskLifecycle,
    LearningOutcomeUseCase,
    IngestionRpcHandlers,
    ProcessTaskJob,
    SweepUploadsUseCase,
    SweepUploadsJob,
    IngestionEventListener,
  ],
  exports: [StartProcessingUseCase, GetTaskUseCase, AgentDataUseCase],
})
export class IngestionModule {}
