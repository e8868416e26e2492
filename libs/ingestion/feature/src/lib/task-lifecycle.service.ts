import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  FILE_REPOSITORY,
  type FileRepositoryPort,
  PAIR_REPOSITORY,
  type PairRepositoryPort,
  type ProcessingTaskEntity,
  TASK_REPOSITORY,
  type TaskRepositoryPort,
} from '@gaia/ingestion/data-access';
import { DomainError } from '@gaia/shared/kernel';
import { OUTBOX, type Outbox } from '@gaia/shared/messaging';
import { toTaskDto } from './task-dto';

export type TaskPatch = Partial<
  Pick<
    ProcessingTaskEntity,
    'successfulFiles' | 'textBlocksExtracted' | 'totalPages' | 'errors' | 'message' | 'status' | 'progress' | 'pairsVersion' | 'pairCount'
  >
>;

/** Progress budget: reading files 5→70 %, learning (retrieval) 70→99 %, done 100 %. */
export const PARSE_END = 70;

/**
 * Every change of a task goes through here, inside the caller's transaction, together with the
 * `task-progress` event (and `task-finished` when it ends), so the pushed state never disagrees with
 * the stored one.
 */
@Injectable()
export class TaskLifecycle {
  constructor(
    @Inject(OUTBOX) private readonly outbox: Outbox,
    @Inject(TASK_REPOSITORY) private readonly tasks: TaskRepositoryPort,
    @Inject(FILE_REPOSITORY) private readonly files: FileRepositoryPort,
    @Inject(PAIR_REPOSITORY) private readonly pairs: PairRepositoryPort,
  ) {}

  /**
   * One new version of an agent's pairs at a time: an upload to an existing agent or a rebuild while a task of the agent is
   * processing would supersede the version that task is learning and leave it PROCESSING for good. Holds the agent's lock
   * until the caller's transaction ends, so two callers cannot both pass.
   */
  async assertIdle(em: EntityManager, agentId: string): Promise<void> {
    await this.tasks.lockAgent(em, agentId);
    if (await this.tasks.findActiveForAgent(em, agentId)) {
      throw DomainError.conflict('This agent is still processing documents. Try again when it is done.', 'task_in_progress');
    }
  }

  async update(em: EntityManager, t: ProcessingTaskEntity, patch: TaskPatch): Promise<ProcessingTaskEntity> {
    await this.tasks.update(em, t.id, patch);
    const saved = (await this.tasks.find(em, t.id))!;
    await this.outbox.add(em, 'ingestion.task-progress.v1', { agentId: t.agentId, ownerId: t.ownerId, task: toTaskDto(saved) });
    return saved;
  }

  /** Progress while reading files: 5 % + 65 % × share of files handled. */
  async fileHandled(em: EntityManager, t: ProcessingTaskEntity, patch: TaskPatch): Promise<ProcessingTaskEntity> {
    const files = await this.files.listForTask(em, t.id);
    const done = files.filter((x) => x.status !== 'pending').length;
    return this.update(em, t, { ...patch, progress: Math.min(PARSE_END, 5 + Math.floor(((PARSE_END - 5) * done) / Math.max(1, files.length))) });
  }

  async finish(em: EntityManager, t: ProcessingTaskEntity, ok: boolean, message: string): Promise<ProcessingTaskEntity> {
    const saved = await this.update(em, t, { status: ok ? 'COMPLETED' : 'FAILED', progress: 100, message });
    const docs = await this.files.countDocuments(em, t.agentId);
    const filenames = (await this.files.listForAgent(em, t.agentId)).filter((f) => f.status === 'done').map((f) => f.filename);
    await this.outbox.add(em, 'ingestion.task-finished.v1', {
      agentId: t.agentId,
      ownerId: t.ownerId,
      taskId: t.id,
      status: ok ? 'COMPLETED' : 'FAILED',
      message,
      processingError: ok ? null : message,
      documentCount: docs.documents,
      textBlocksExtracted: docs.textBlocks,
      pairCount: await this.pairs.count(em, t.agentId),
      filenames,
      task: toTaskDto(saved),
    });
    return saved;
  }
}
