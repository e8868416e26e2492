import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { UPLOAD_SWEEP_REPOSITORY, type UploadSweepRepositoryPort } from '@gaia/ingestion/data-access';
import { UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { JOB_QUEUE, type JobQueue, TrafficDrivenJob } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';

export const SWEEP_UPLOADS_JOB = 'ingestion.sweep-unclaimed-uploads';
/** Registered uploads between two attempts to queue the sweep (at most one sweep per UTC hour: the job's dedupe key). */
export const SWEEP_EVERY_REGISTRATIONS = 20;
/**
 * How long an upload folder stays unclaimed before it is deleted: the gateway registers the originals it wrote within
 * its request, so a folder still unclaimed a day after the sweep first saw it belongs to no task and never will.
 */
export const UNCLAIMED_UPLOAD_GRACE_MS = 24 * 60 * 60 * 1000;
/** Folders of the gateway's originals: `uploads/<uploadId>/<n>-<name>` (contracts `ingestionUploadKey`). */
const UPLOADS_ROOT = 'uploads/';
/** Upload folders checked against the registered files per statement. */
const CLAIM_BATCH = 500;

/**
 * Deletes the originals no task owns. The gateway writes an upload's originals before it registers them with ingestion
 * (StartProcessingUseCase); a refusal deletes them at once, but an ingestion outage or a crash between the two leaves a
 * folder nothing will ever delete. The sweep remembers each unclaimed folder when it first sees it and deletes it once
 * it has stayed unclaimed for UNCLAIMED_UPLOAD_GRACE_MS. Like the billing counter purge, it is driven by the traffic
 * it cleans up after: every SWEEP_EVERY_REGISTRATIONS registrations queue the durable job, in their own transaction.
 */
@Injectable()
export class SweepUploadsUseCase {
  private readonly logger = new Logger('UploadSweep');
  private readonly trigger: TrafficDrivenJob;

  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(JOB_QUEUE) jobs: JobQueue,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(UPLOAD_SWEEP_REPOSITORY) private readonly sweeps: UploadSweepRepositoryPort,
  ) {
    this.trigger = new TrafficDrivenJob(jobs, SWEEP_UPLOADS_JOB, SWEEP_EVERY_REGISTRATIONS);
  }

  /** Counts a registered upload; every SWEEP_EVERY_REGISTRATIONS-th queues the sweep in the registration's transaction. */
  uploadRegistered(em: EntityManager, now: Date): Promise<void> {
    return this.trigger.counted(em, now);
  }

  /** One sweep: remembers the folders unclaimed now, deletes those unclaimed for the grace period. Returns those deleted. */
  async sweep(): Promise<string[]> {
    const folders = [...new Set((await this.storage.list(UPLOADS_ROOT)).map(uploadFolderOf).filter((f): f is string => f !== null))];
    const unclaimed: string[] = [];
    for (let i = 0; i < folders.length; i += CLAIM_BATCH) {
      const batch = folders.slice(i, i + CLAIM_BATCH);
      const claimed = await this.uow.run((em) => this.sweeps.claimed(em, batch));
      for (const f of batch) if (!claimed.has(f)) unclaimed.push(f);
    }
    await this.uow.run((em) => this.sweeps.remember(em, unclaimed));
    const deleted: string[] = [];
    for (const folder of await this.uow.run((em) => this.sweeps.unclaimedSince(em, UNCLAIMED_UPLOAD_GRACE_MS))) {
      // claimed since it was listed: kept (and forgotten by the next sweep)
      if ((await this.uow.run((em) => this.sweeps.claimed(em, [folder]))).size) continue;
      await this.storage.delete(folder);
      await this.uow.run((em) => this.sweeps.forget(em, folder));
      deleted.push(folder);
    }
    if (deleted.length) this.logger.log(`deleted ${deleted.length} upload folders no task claimed`);
    return deleted;
  }
}

/** `uploads/<id>/` of a stored key under it, or null. */
function uploadFolderOf(key: string): string | null {
  if (!key.startsWith(UPLOADS_ROOT)) return null;
  const end = key.indexOf('/', UPLOADS_ROOT.length);
  return end > UPLOADS_ROOT.length ? key.slice(0, end + 1) : null;
}
