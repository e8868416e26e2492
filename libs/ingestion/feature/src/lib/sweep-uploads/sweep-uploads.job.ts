import { Injectable } from '@nestjs/common';
import { OnJob } from '@gaia/shared/messaging';
import { SWEEP_UPLOADS_JOB, SweepUploadsUseCase } from './sweep-uploads.use-case';

/** The durable job that deletes upload folders no task claimed (queued by upload registrations). */
@Injectable()
export class SweepUploadsJob {
  constructor(private readonly sweep: SweepUploadsUseCase) {}

  @OnJob('ingestion', SWEEP_UPLOADS_JOB)
  async run(): Promise<void> {
    await this.sweep.sweep();
  }
}
