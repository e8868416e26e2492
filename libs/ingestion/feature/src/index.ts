export * from './lib/ingestion.module';
export * from './lib/ingestion.tokens';
export * from './lib/start-processing/start-processing.use-case';
export * from './lib/process-task/process-task.use-case';
export * from './lib/task-queries/task-queries.use-case';
export * from './lib/task-dto';
export { ingestionSchema } from '@gaia/ingestion/data-access';
export * from './lib/learning-outcome/learning-outcome.use-case';
export * from './lib/task-lifecycle.service';
