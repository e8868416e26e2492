import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { startProcessingRequestSchema, type StartProcessingRequest } from '@gaia/contracts';
import { FILE_REPOSITORY, type FileRepositoryPort, type ProcessingTaskEntity, TASK_REPOSITORY, type TaskRepositoryPort } from '@gaia/ingestion/data-access';
import { detectFileKind, normalizeLanguage, pairMosesFiles } from '@gaia/ingestion/parsers';
import { UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { DomainError, newId } from '@gaia/shared/kernel';
import { JOB_QUEUE, OUTBOX, type JobQueue, type Outbox } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { PROCESS_TASK_JOB, PROCESS_TASK_MAX_ATTEMPTS } from '../ingestion.tokens';
import { toTaskDto } from '../task-dto';
import { TaskLifecycle } from '../task-lifecycle.service';
import { SweepUploadsUseCase } from '../sweep-uploads/sweep-uploads.use-case';

const UNREADABLE = new Set(['binary', 'office', 'xml', 'empty']);

/** Seconds a task is expected to take: a base plus time per MiB (PDFs are slower to read). */
export function estimateSeconds(files: Array<{ filename: string; size: number }>): number {
  let s = 5;
  for (const f of files) s += (f.size / (1024 * 1024)) * (/\.pdf$/i.test(f.filename) ? 8 : 2);
  return Math.ceil(s);
}

/**
 * documents/process and update-model: the originals are already in FILE_STORAGE (the gateway wrote
 * them); this registers the task and its files, enqueues the durable job and the `task-started` event in
 * one transaction, and answers at once.
 */
@Injectable()
export class StartProcessingUseCase {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(OUTBOX) private readonly outbox: Outbox,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(TASK_REPOSITORY) private readonly tasks: TaskRepositoryPort,
    @Inject(FILE_REPOSITORY) private readonly files: FileRepositoryPort,
    private readonly sweep: SweepUploadsUseCase,
    private readonly lifecycle: TaskLifecycle,
  ) {}

  async execute(raw: StartProcessingRequest): Promise<{ task_id: string; model_id: string; total_files: number }> {
    const req = startProcessingRequestSchema.parse(raw);
    if (req.idempotencyKey) {
      const existing = await this.uow.run((em) => this.tasks.findByIdempotencyKey(em, req.ownerId, req.idempotencyKey!));
      if (existing) return { task_id: existing.id, model_id: existing.agentId, total_files: existing.totalFiles };
    }
    // Every original must be durable before we acknowledge; sniff types so an all-unsupported upload fails at once.
    const unsupported: string[] = [];
    for (const f of req.files) {
      if (!(await this.storage.exists(f.key))) throw DomainError.invalid(`${f.filename}: the uploaded file was not found`, 'upload_missing');
      const head = (await this.storage.get(f.key)).subarray(0, 65536);
      const kind = detectFileKind(f.filename, head).kind;
      if (UNREADABLE.has(kind)) unsupported.push(kind === 'empty' ? `${f.filename}: the file is empty` : `${f.filename}: Unsupported file type`);
    }
    if (unsupported.length === req.files.length) throw new DomainError('unsupported_file_type', unsupported.join('\n'), 415);

    const srcLang = normalizeLanguage(req.srcLang);
    const tgtLang = normalizeLanguage(req.tgtLang);
    const agentId = req.agentId ?? newId();
    const taskId = newId();
    const indexed = req.files.map((f, idx) => ({ ...f, idx, filename: f.filename }));
    const moses = pairMosesFiles(
      indexed.map((f) => ({ ...f, bytes: new Uint8Array(0) })),
      srcLang,
      tgtLang,
    );
    const companion = new Map<number, number>();
    const merged = new Set<number>();
    for (const p of moses.pairs) {
      companion.set(p.source.idx, p.target.idx);
      merged.add(p.target.idx);
    }

    const task = await this.uow.run(async (em: EntityManager) => {
      if (req.mode === 'update') await this.lifecycle.assertIdle(em, agentId);
      const t: Omit<
        ProcessingTaskEntity,
        'createdAt' | 'status' | 'progress' | 'successfulFiles' | 'textBlocksExtracted' | 'errors' | 'totalPages' | 'pairsVersion' | 'pairCount'
      > = {
        id: taskId,
        agentId,
        ownerId: req.ownerId,
        mode: req.mode,
        srcLang,
        tgtLang,
        message: `Queued ${req.files.length} file(s) for processing`,
        estimatedProcessingTime: estimateSeconds(req.files),
        totalFiles: req.files.length,
      };
      await this.tasks.insert(em, { ...t, idempotencyKey: req.idempotencyKey ?? null });
      await this.files.insertMany(
        em,
        indexed.map((f) => ({
          id: newId(),
          taskId,
          agentId,
          idx: f.idx,
          filename: f.filename,
          storageKey: f.key,
          size: f.size,
          companionIdx: companion.get(f.idx) ?? null,
          status: merged.has(f.idx) ? ('merged' as const) : ('pending' as const),
        })),
      );
      await this.jobs.enqueue(em, PROCESS_TASK_JOB, { taskId }, { dedupeKey: taskId, maxAttempts: PROCESS_TASK_MAX_ATTEMPTS });
      const saved = (await this.tasks.find(em, taskId))!;
      await this.sweep.uploadRegistered(em, saved.createdAt); // originals left by failed registrations are swept
      await this.outbox.add(
        em,
        'ingestion.task-started.v1',
        {
          taskId,
          agentId,
          ownerId: req.ownerId,
          mode: req.mode,
          srcLang,
          tgtLang,
          customPrompt: req.customPrompt,
          coreMemory: req.coreMemory,
          totalFiles: req.files.length,
          filenames: req.files.map((f) => f.filename),
          createdAt: saved.createdAt.toISOString(),
        },
        { id: undefined, requestId: req.requestId ?? null },
      );
      await this.outbox.add(em, 'ingestion.task-progress.v1', { agentId, ownerId: req.ownerId, task: toTaskDto(saved) }, { requestId: req.requestId ?? null });
      return saved;
    });
    return { task_id: task.id, model_id: task.agentId, total_files: task.totalFiles };
  }
}
