import { Injectable } from '@nestjs/common';
import { OnJob, type JobContext } from '@gaia/shared/messaging';
import { TRANSLATE_FILE_JOB, TranslateFileUseCase, type TranslateFileJob } from './translate-file.use-case';

/** How long a worker holds the job between two chunks before another may take it over (a dead process's at once). */
export const TRANSLATE_FILE_LEASE_MS = 120_000;

/** The durable job of a file translation: the segments after the first, chunk by chunk, resumed after a crash. */
@Injectable()
export class TranslateFileJobHandler {
  constructor(private readonly files: TranslateFileUseCase) {}

  @OnJob('gateway', TRANSLATE_FILE_JOB, { leaseMs: TRANSLATE_FILE_LEASE_MS })
  run(job: TranslateFileJob, ctx: JobContext): Promise<void> {
    return this.files.run(job, ctx);
  }
}
