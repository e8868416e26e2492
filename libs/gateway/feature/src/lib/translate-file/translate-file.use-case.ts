import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_KEY_RATE_LIMIT,
  TRANSLATE_FILE_MAX_BYTES,
  TRANSLATE_FILE_MAX_SEGMENTS,
  translateFileFieldsSchema,
  type TranslateFileStartResponse,
  type TranslateFileTaskDto,
} from '@gaia/contracts';
import { AccountsService, ApiKeysService, REVOKED_API_KEY } from '@gaia/identity/feature';
import { UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { CLOCK, DomainError, isDomainError, type Clock } from '@gaia/shared/kernel';
import { JOB_QUEUE, type JobContext, type JobQueue } from '@gaia/shared/messaging';
import type { Principal } from '../auth/principal';
import { errorResponse } from '../http/domain-error.filter';
import { RealtimeGateway, userRoom } from '../realtime/realtime.gateway';
import { TranslateBatchUseCase } from '../translate-batch/translate-batch.use-case';
import { formatOf, parseFile, type ParsedFile } from './file-codecs';
import { TranslateFileTaskStore, fileTaskDto, type SavedChunk, type StoredFileTask } from './translate-file-task.store';

/**
 * A PROCESSING task of a gateway from before the durable job (no `next_segment`: it translated in memory) not
 * updated for this long (on the CLOCK) was interrupted: reported FAILED. Job-run tasks resume instead.
 */
export const FILE_TASK_STALE_MS = 5 * 60_000;
/** Socket.IO event with the task after each progress step, to the owner's sockets. */
export const FILE_PROGRESS_EVENT = 'translate_file_progress';
export const TASK_NOT_FOUND = 'Task not found.';
/** Segments translated (as one batch) between two progress updates: the work a crash can make the job redo. */
export const FILE_TASK_CHUNK = 20;
/** The durable job that translates an uploaded file after its first segment. */
export const TRANSLATE_FILE_JOB = 'gateway.translate-file';
/** Attempts of the job (a crash or a failing step); a task still unfinished after them is reported FAILED. */
export const FILE_TASK_ATTEMPTS = 5;
export const FILE_TASK_INTERRUPTED = 'The translation was interrupted. Please upload the file again.';

/**
 * Chunks one job translates before it hands the rest of the file to a new job at the back of the queue: the
 * gateway's job slots are shared by every file (and the account scrubs), so a long file does not hold one to its end.
 */
export const FILE_TASK_SLICE_CHUNKS = 5;

/**
 * One slice of a task: the segments from `from` on, at most FILE_TASK_SLICE_CHUNKS chunks (the slice's own job).
 * `ownerId` locates the task under its owner (absent on jobs of gateways from before it: a legacy-layout task).
 */
export type TranslateFileJob = { taskId: string; from: number; ownerId?: string };

/** The task's owner was deleted while it ran: its files are removed and nothing more is written. */
class TaskOwnerGone extends Error {
  constructor(taskId: string) {
    super(`file task ${taskId}: the owner's account was deleted; its files are removed`);
  }
}

/**
 * The address the job meters segments from: none is kept with the task (only the public translator is metered
 * per address, and files refuse the public key).
 */
const FILE_JOB_IP = 'job';
/** DomainError statuses from here on are outages (retried), below it refusals (the task fails). */
const SERVER_ERROR_STATUS = 500;

/** The metering request id of segment `from + i` of a task (TranslateBatchUseCase appends `-<i>`): the same on every attempt. */
export const fileChunkRequestIdBase = (taskId: string, from: number): string => `translate-file-${taskId}-${from}`;

const CONTENT_TYPES: Record<TranslateFileTaskDto['format'], string> = {
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  tmx: 'application/x-tmx+xml; charset=utf-8',
  xliff: 'application/xliff+xml; charset=utf-8',
};

/** Multipart file names arrive as latin1 (busboy's default): read them back as the UTF-8 browsers and fetch send. */
export function uploadedName(raw: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(raw, 'latin1'));
  } catch {
    return raw;
  }
}

/** The name of a task's translated file: `<name>.<tgt_lang>.<ext>`. */
export function translatedFileName(t: Pick<StoredFileTask, 'file_name' | 'tgt_lang'>): string {
  const dot = t.file_name.lastIndexOf('.');
  return dot > 0 ? `${t.file_name.slice(0, dot)}.${t.tgt_lang}${t.file_name.slice(dot)}` : `${t.file_name}.${t.tgt_lang}`;
}

export interface UploadedTextFile {
  originalname: string;
  size: number;
  buffer: Buffer;
}

/**
 * POST /api/translate/file: a TXT, CSV/TSV, TMX or XLIFF file translated segment by segment into the same
 * format. Each segment is one text of a batch (TranslateBatchUseCase: validated, metered and billed per
 * segment; a failing segment keeps an empty target). The first segment is translated before answering, so
 * a refusal of the caller or the agent is the HTTP answer; the rest is a durable job (`gateway.translate-file`,
 * enqueued before the answer) that any gateway process runs chunk by chunk, saving each chunk's translations
 * and the task's progress, so a job resumed after a crash goes on from the last saved chunk. A chunk cut short
 * is translated again with the same metering request ids (billing counts each segment once). Progress is pushed
 * over Socket.IO (`translate_file_progress`) and read at GET /api/translate/file/status.
 */
@Injectable()
export class TranslateFileUseCase {
  private readonly logger = new Logger('TranslateFile');

  constructor(
    private readonly batches: TranslateBatchUseCase,
    private readonly store: TranslateFileTaskStore,
    private readonly realtime: RealtimeGateway,
    private readonly accounts: AccountsService,
    private readonly keys: ApiKeysService,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async start(p: Principal, ip: string, file: UploadedTextFile | undefined, fields: Record<string, unknown>): Promise<TranslateFileStartResponse> {
    const ownerId = p.kind === 'session' ? p.user.id : p.kind === 'key' && p.key.kind === 'user' ? p.key.userId : null;
    if (p.kind === 'anonymous') throw DomainError.unauthorized('Missing API key. Send it in the X-API-Key header.', 'api_key_required');
    if (!ownerId) throw DomainError.forbidden('File translation needs your own API key or a signed-in session.', 'own_key_required');
    const parsedFields = translateFileFieldsSchema.safeParse(fields ?? {});
    if (!parsedFields.success)
      throw DomainError.invalid('Missing required fields: model_id, src_lang, tgt_lang (column and format are optional).', 'invalid_request');
    const f = parsedFields.data;
    if (!file) throw DomainError.invalid('Missing file: send it in the multipart field "file".', 'file_required');
    const name = uploadedName(file.originalname);
    if (file.size > TRANSLATE_FILE_MAX_BYTES)
      throw new DomainError('file_too_large', `File too large: ${name} (maximum ${TRANSLATE_FILE_MAX_BYTES / 1024 / 1024} MB).`, 413);
    const format = formatOf(name, f.format);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(file.buffer);
    } catch {
      throw DomainError.invalid(`${name}: the file is not UTF-8 text.`, 'not_utf8');
    }
    const parsed = parseFile(format, text, { srcLang: f.src_lang, tgtLang: f.tgt_lang, column: f.column });
    if (parsed.segments.length === 0) throw DomainError.invalid(`${name}: nothing to translate.`, 'empty_file');
    if (parsed.segments.length > TRANSLATE_FILE_MAX_SEGMENTS) {
      throw DomainError.invalid(`${name}: ${parsed.segments.length} segments (maximum ${TRANSLATE_FILE_MAX_SEGMENTS}).`, 'too_many_segments');
    }
    const now = this.clock.now().toISOString();
    const task: StoredFileTask = {
      id: randomUUID(),
      status: 'PROCESSING',
      progress: 0,
      message: 'Translating…',
      format,
      file_name: name,
      model_id: f.model_id,
      total_segments: parsed.segments.length,
      translated_segments: 0,
      failed_segments: 0,
      created_at: now,
      owner_id: ownerId,
      src_lang: f.src_lang,
      tgt_lang: f.tgt_lang,
      column: f.column ?? null,
      updated_at: now,
      next_segment: 0,
      key_id: p.kind === 'key' ? p.key.keyId : null,
      key_rate_limit: p.kind === 'key' ? p.key.rateLimit : null,
    };
    // The first segment alone: an unknown agent or a refused caller is the answer to this request.
    const first = await this.translateChunk(p, ip, task, parsed, 0, 1, () => false);
    try {
      await this.store.putSource(task, file.buffer);
      await this.saveChunk(task, first);
    } catch (e) {
      // The account was deleted while this upload ran: nothing of it stays.
      if (e instanceof TaskOwnerGone) throw DomainError.unauthorized('Please sign in.');
      throw e;
    }
    // Every task a caller learns the id of has its job: the answer follows the commit.
    await this.enqueueSlice(task, task.next_segment ?? 1);
    return { task_id: task.id, total_segments: task.total_segments };
  }

  /**
   * The job of one slice: the segments after the saved ones, chunk by chunk, up to the slice's end (then the next
   * slice's job) or the result. Resumed after a crash from the last saved chunk; stops at a chunk boundary on
   * shutdown (the job resumes elsewhere). Slices never overlap: a slice's job starts once the one before saved its end.
   */
  async run(job: TranslateFileJob, ctx: JobContext): Promise<void> {
    try {
      await this.runSlice(job, ctx);
    } catch (e) {
      if (e instanceof TaskOwnerGone) return this.logger.log(e.message); // erased: the job is done
      throw e;
    }
  }

  private async runSlice(job: TranslateFileJob, ctx: JobContext): Promise<void> {
    const task = job.ownerId ? await this.store.load(job.ownerId, job.taskId) : await this.store.loadLegacy(job.taskId);
    if (!task || task.status !== 'PROCESSING' || task.next_segment === undefined) return; // finished already (or erased)
    if (ctx.attempt > FILE_TASK_ATTEMPTS) return this.fail(task, FILE_TASK_INTERRUPTED); // crashed on every attempt
    const sliceEnd = job.from + FILE_TASK_SLICE_CHUNKS * FILE_TASK_CHUNK;
    const onShutdown = () => this.logger.log(`file task ${task.id}: shutting down, the job stops after its chunk and resumes elsewhere`);
    ctx.signal.addEventListener('abort', onShutdown, { once: true });
    try {
      if (task.next_segment < sliceEnd) {
        const parsed = parseFile(task.format, new TextDecoder().decode(await this.store.source(task)), {
          srcLang: task.src_lang,
          tgtLang: task.tgt_lang,
          column: task.column ?? undefined,
        });
        for (let from = task.next_segment; from < task.total_segments && from < sliceEnd; from = task.next_segment) {
          if (ctx.signal.aborted) throw new Error('shutting down');
          const to = Math.min(task.total_segments, from + FILE_TASK_CHUNK);
          // Asked before every chunk: a revoked key translates no further chunk, like any request with it.
          const p = await this.callerOf(task);
          if (!p) return await this.store.deleteTask(task); // the account was deleted: its task goes with it, never rewritten
          const chunk = await this.translateChunk(p, FILE_JOB_IP, task, parsed, from, to, () => ctx.signal.aborted);
          if (ctx.signal.aborted) throw new Error('shutting down'); // segments left out as cancelled: the chunk is redone
          await this.saveChunk(task, chunk);
          await ctx.heartbeat();
        }
        if (task.next_segment >= task.total_segments) return await this.complete(task, parsed);
      }
      // The slice is saved (now, or before a crash of this job): the rest is the next slice's job (enqueued once).
      await this.enqueueSlice(task, task.next_segment);
    } catch (e) {
      if (e instanceof TaskOwnerGone || ctx.signal.aborted) throw e;
      // A refusal (the agent is gone, the caller may no longer use it, the upload is gone) ends the task; an outage is retried.
      if ((isDomainError(e) && (e as DomainError).status < SERVER_ERROR_STATUS) || ctx.attempt >= FILE_TASK_ATTEMPTS) {
        this.logger.warn(`file task ${task.id} failed: ${(e as Error).message}`);
        return this.fail(task, errorResponse(e).body.error);
      }
      throw e;
    } finally {
      ctx.signal.removeEventListener('abort', onShutdown);
    }
  }

  /** The job of the slice of a task starting at segment `from` (at most one per slice). */
  private enqueueSlice(task: StoredFileTask, from: number): Promise<string> {
    const job: TranslateFileJob = task.legacy ? { taskId: task.id, from } : { taskId: task.id, from, ownerId: task.owner_id };
    return this.uow.run((em) =>
      this.jobs.enqueue(em, TRANSLATE_FILE_JOB, job, {
        dedupeKey: `${task.id}@${from}`,
        maxAttempts: FILE_TASK_ATTEMPTS,
      }),
    );
  }

  async status(p: Principal, taskId: unknown): Promise<{ task: TranslateFileTaskDto }> {
    return { task: fileTaskDto(await this.owned(p, taskId)) };
  }

  async download(p: Principal, taskId: unknown): Promise<{ bytes: Uint8Array; fileName: string; contentType: string }> {
    const t = await this.owned(p, taskId);
    if (t.status !== 'COMPLETED')
      throw DomainError.conflict(t.status === 'FAILED' ? `The translation failed: ${t.message}` : 'The translation is not finished yet.', 'task_not_completed');
    return { bytes: await this.store.result(t), fileName: translatedFileName(t), contentType: CONTENT_TYPES[t.format] };
  }

  private async owned(p: Principal, taskId: unknown): Promise<StoredFileTask> {
    const userId = p.kind === 'session' ? p.user.id : p.kind === 'key' ? p.key.userId : null;
    // Read under the caller's own prefix only: another account's task id finds nothing.
    const t = typeof taskId === 'string' && userId ? await this.store.load(userId, taskId) : null;
    if (!t || t.owner_id !== userId) throw DomainError.notFound(TASK_NOT_FOUND, 'task_not_found');
    if (t.status === 'PROCESSING' && t.next_segment === undefined && this.clock.now().getTime() - Date.parse(t.updated_at) > FILE_TASK_STALE_MS) {
      return { ...t, status: 'FAILED', message: FILE_TASK_INTERRUPTED };
    }
    return t;
  }

  /**
   * The caller the task translates as: its owner, with the API key it was uploaded with (null: the account is gone).
   * Throws the revocation (401, the task fails) once that key is revoked or gone.
   */
  private async callerOf(task: StoredFileTask): Promise<Principal | null> {
    const user = await this.accounts.getUser(task.owner_id);
    if (!user) return null;
    if (!task.key_id) return { kind: 'session', user, csrfToken: '' };
    const key = await this.keys.getOwned(user.id, task.key_id).catch((e: unknown) => {
      if (isDomainError(e) && (e as DomainError).status === 404) return null;
      throw e;
    });
    if (!key || key.revokedAt) throw DomainError.unauthorized(REVOKED_API_KEY, 'revoked_api_key');
    return { kind: 'key', key: { keyId: task.key_id, kind: 'user', userId: user.id, rateLimit: task.key_rate_limit ?? DEFAULT_KEY_RATE_LIMIT }, user };
  }

  /** Translates segments [from, to) as one batch with request ids that depend only on the task and `from`. */
  private async translateChunk(
    p: Principal,
    ip: string,
    task: StoredFileTask,
    parsed: ParsedFile,
    from: number,
    to: number,
    cancelled: () => boolean,
  ): Promise<SavedChunk> {
    const answer = await this.batches.run(
      {
        principal: p,
        ip,
        body: { texts: parsed.segments.slice(from, to), model_id: task.model_id, src_lang: task.src_lang, tgt_lang: task.tgt_lang, stream: false },
        cancelled,
      },
      fileChunkRequestIdBase(task.id, from),
    );
    const translations: Array<string | null> = new Array(to - from).fill(null);
    const errors: Array<string | null> = new Array(to - from).fill(null);
    for (const r of answer.results) {
      if (r.ok) translations[r.index] = r.translation;
      else errors[r.index] = r.error;
    }
    return { from, translations, errors };
  }

  /** Saves a chunk's translations, then the task with its counters and the next segment (in that order). */
  private async saveChunk(task: StoredFileTask, chunk: SavedChunk): Promise<void> {
    await this.store.putChunk(task, chunk);
    chunk.translations.forEach((t, i) => {
      if (t !== null) task.translated_segments++;
      else {
        task.failed_segments++;
        if (task.failed_segments === 1) task.message = `Segment ${chunk.from + i + 1}: ${chunk.errors?.[i] ?? 'Translation failed'}`;
      }
    });
    task.next_segment = chunk.from + chunk.translations.length;
    task.progress = Math.min(99, Math.floor(((task.translated_segments + task.failed_segments) / task.total_segments) * 100));
    await this.save(task);
  }

  private async complete(task: StoredFileTask, parsed: ParsedFile): Promise<void> {
    if (task.translated_segments === 0) {
      task.status = 'FAILED';
    } else {
      const out: Array<string | null> = new Array(parsed.segments.length).fill(null);
      for (const c of await this.store.chunks(task)) c.translations.forEach((t, i) => (out[c.from + i] = t));
      await this.store.putResult(task, parsed.render(out));
      task.status = 'COMPLETED';
      task.message = task.failed_segments
        ? `Translated ${task.translated_segments} of ${task.total_segments} segments (${task.failed_segments} failed; ${task.message}).`
        : `Translated ${task.translated_segments} segments.`;
    }
    task.progress = 100;
    await this.save(task);
    await this.store.deleteChunks(task);
  }

  private async fail(task: StoredFileTask, message: string): Promise<void> {
    task.status = 'FAILED';
    task.message = message;
    await this.save(task);
    await this.store.deleteChunks(task);
  }

  /**
   * Saves the task, then makes sure its owner still exists. Every write of a task's files (source, chunk, result)
   * is followed by this save, and account deletion removes the files after the account's row is gone, so a write
   * that lands after the erasure is seen here and removed: a deleted account's task is never written back.
   * Throws TaskOwnerGone then.
   */
  private async save(task: StoredFileTask): Promise<void> {
    task.updated_at = this.clock.now().toISOString();
    await this.store.save(task);
    if (!(await this.accounts.getUser(task.owner_id))) {
      await this.store.deleteTask(task);
      throw new TaskOwnerGone(task.id);
    }
    this.realtime.emit([userRoom(task.owner_id)], FILE_PROGRESS_EVENT, fileTaskDto(task));
  }
}
