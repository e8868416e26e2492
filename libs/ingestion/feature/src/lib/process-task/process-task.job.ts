import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { OnJob, type JobContext } from '@gaia/shared/messaging';
import { PROCESS_TASK_JOB, PROCESS_TASK_MAX_ATTEMPTS } from '../ingestion.tokens';
import { ProcessTaskUseCase } from './process-task.use-case';

/** Lease of a task's job when the config has none (heartbeat per file): the fallback when a dead worker's liveness lock cannot be seen. */
const DEFAULT_PROCESS_TASK_LEASE_MS = 120_000;

/** The durable worker of processing tasks (resumed after a crash by the job runner's lease, INGESTION_JOB_LEASE_MS). */
@Injectable()
export class ProcessTaskJob {
  readonly leaseMs: number;

  constructor(
    private readonly process: ProcessTaskUseCase,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.leaseMs = config.INGESTION_JOB_LEASE_MS ?? DEFAULT_PROCESS_TASK_LEASE_MS;
  }

  @OnJob('ingestion', PROCESS_TASK_JOB, { leaseMs: (job: ProcessTaskJob) => job.leaseMs })
  async handle(payload: { taskId: string }, ctx: JobContext): Promise<void> {
    try {
      await this.process.run(payload.taskId, ctx);
    } catch (e) {
      if (ctx.signal.aborted || ctx.attempt < PROCESS_TASK_MAX_ATTEMPTS) throw e; // retried (or resumed elsewhere)
      await this.process.giveUp(payload.taskId, (e as Error).message ?? String(e));
    }
  }
}
