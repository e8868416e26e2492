import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { TASK_REPOSITORY, type TaskRepositoryPort } from '@gaia/ingestion/data-access';
import { PARSE_END, TaskLifecycle } from '../task-lifecycle.service';

/**
 * The second half of a task: retrieval indexes the stored pairs and learns the core memory, then
 * reports; the task (and so the agent) is ready only then. Events of another version are ignored.
 */
@Injectable()
export class LearningOutcomeUseCase {
  constructor(
    @Inject(TASK_REPOSITORY) private readonly tasks: TaskRepositoryPort,
    private readonly lifecycle: TaskLifecycle,
  ) {}

  private async waitingTask(em: EntityManager, taskId: string | null, version: string) {
    if (!taskId) return null;
    const t = await this.tasks.find(em, taskId, true);
    return t && t.status === 'PROCESSING' && t.pairsVersion === version ? t : null;
  }

  async progress(em: EntityManager, e: EventMap['retrieval.build-progress.v1']): Promise<void> {
    const t = await this.waitingTask(em, e.taskId, e.version);
    if (!t) return;
    const progress = Math.min(99, PARSE_END + Math.floor((99 - PARSE_END) * e.fraction));
    if (progress <= t.progress && e.message === t.message) return;
    await this.lifecycle.update(em, t, { progress: Math.max(progress, t.progress), message: e.message });
  }

  async learned(em: EntityManager, e: EventMap['retrieval.agent-learned.v1']): Promise<void> {
    const t = await this.waitingTask(em, e.taskId, e.version);
    if (!t) return;
    await this.lifecycle.finish(em, t, true, `Processed ${t.successfulFiles} of ${t.totalFiles} files successfully!`);
  }

  async failed(em: EntityManager, e: EventMap['retrieval.build-failed.v1']): Promise<void> {
    const t = await this.waitingTask(em, e.taskId, e.version);
    if (!t) return;
    await this.lifecycle.finish(em, t, false, e.message);
  }
}
