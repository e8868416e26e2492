import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  TRANSLATE_FILE_MAX_BYTES,
  TRANSLATE_FILE_MAX_SEGMENTS,
  translateFileFieldsSchema,
  type TranslateFileStartResponse,
  type TranslateFileTaskDto,
} from '@gaia/contracts';
import { CLOCK, DomainError, type Clock } from '@gaia/shared/kernel';
import type { Principal } from '../auth/principal';
import { errorResponse } from '../http/domain-error.filter';
import { RealtimeGateway, userRoom } from '../realtime/realtime.gateway';
import { TranslateBatchUseCase } from '../translate-batch/translate-batch.use-case';
import { formatOf, parseFile, type ParsedFile } from './file-codecs';
import { TranslateFileTaskStore, fileTaskDto, type StoredFileTask } from './translate-file-task.store';

/** A PROCESSING task not updated for this long (on the CLOCK) was interrupted (its gateway stopped): reported FAILED. */
export const FILE_TASK_STALE_MS = 5 * 60_000;
/** Socket.IO event with the task after each progress step, to the owner's sockets. */
export const FILE_PROGRESS_EVENT = 'translate_file_progress';
export const TASK_NOT_FOUND = 'Task not found.';
/** Segments translated (as one batch) between two progress updates. */
export const FILE_TASK_CHUNK = 20;

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

export interface UploadedTextFile {
  originalname: string;
  size: number;
  buffer: Buffer;
}

/**
 * POST /api/translate/file: a TXT, CSV/TSV, TMX or XLIFF file translated segment by segment into the same
 * format. Each segment is one text of a batch (TranslateBatchUseCase: validated, metered and billed per
 * segment; a failing segment keeps an empty target). The first segment is translated before answering, so
 * a refusal of the caller or the agent is the HTTP answer; the rest runs as a task whose progress is pushed
 * over Socket.IO (`translate_file_progress`) and read at GET /api/translate/file/status.
 */
@Injectable()
export class TranslateFileUseCase implements OnModuleDestroy {
  private readonly logger = new Logger('TranslateFile');
  private closing = false;

  constructor(
    private readonly batches: TranslateBatchUseCase,
    private readonly store: TranslateFileTaskStore,
    private readonly realtime: RealtimeGateway,
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
    };
    const translations: Array<string | null> = new Array(parsed.segments.length).fill(null);
    // The first segment alone: an unknown agent or a refused caller is the answer to this request.
    await this.translateRange(p, ip, task, parsed, translations, 0, 1);
    await this.store.putSource(task.id, file.buffer);
    await this.save(task);
    void this.finish(p, ip, task, parsed, translations);
    return { task_id: task.id, total_segments: task.total_segments };
  }

  async status(p: Principal, taskId: unknown): Promise<{ task: TranslateFileTaskDto }> {
    return { task: fileTaskDto(await this.owned(p, taskId)) };
  }

  async download(p: Principal, taskId: unknown): Promise<{ bytes: Uint8Array; fileName: string; contentType: string }> {
    const t = await this.owned(p, taskId);
    if (t.status !== 'COMPLETED')
      throw DomainError.conflict(t.status === 'FAILED' ? `The translation failed: ${t.message}` : 'The translation is not finished yet.', 'task_not_completed');
    const dot = t.file_name.lastIndexOf('.');
    const fileName = dot > 0 ? `${t.file_name.slice(0, dot)}.${t.tgt_lang}${t.file_name.slice(dot)}` : `${t.file_name}.${t.tgt_lang}`;
    return { bytes: await this.store.result(t.id), fileName, contentType: CONTENT_TYPES[t.format] };
  }

  onModuleDestroy(): void {
    this.closing = true;
  }

  private async owned(p: Principal, taskId: unknown): Promise<StoredFileTask> {
    const userId = p.kind === 'session' ? p.user.id : p.kind === 'key' ? p.key.userId : null;
    const t = typeof taskId === 'string' ? await this.store.load(taskId) : null;
    if (!t || !userId || t.owner_id !== userId) throw DomainError.notFound(TASK_NOT_FOUND, 'task_not_found');
    if (t.status === 'PROCESSING' && this.clock.now().getTime() - Date.parse(t.updated_at) > FILE_TASK_STALE_MS) {
      return { ...t, status: 'FAILED', message: 'The translation was interrupted. Please upload the file again.' };
    }
    return t;
  }

  /** Translates segments [from, to) as one batch; counts successes and failures into the task. */
  private async translateRange(
    p: Principal,
    ip: string,
    task: StoredFileTask,
    parsed: ParsedFile,
    out: Array<string | null>,
    from: number,
    to: number,
  ): Promise<void> {
    const answer = await this.batches.run({
      principal: p,
      ip,
      body: { texts: parsed.segments.slice(from, to), model_id: task.model_id, src_lang: task.src_lang, tgt_lang: task.tgt_lang, stream: false },
      cancelled: () => this.closing,
    });
    for (const r of answer.results) {
      if (r.ok) {
        out[from + r.index] = r.translation;
        task.translated_segments++;
      } else {
        task.failed_segments++;
        if (task.failed_segments === 1) task.message = `Segment ${from + r.index + 1}: ${r.error}`;
      }
    }
    task.progress = Math.min(99, Math.floor(((task.translated_segments + task.failed_segments) / task.total_segments) * 100));
  }

  private async finish(p: Principal, ip: string, task: StoredFileTask, parsed: ParsedFile, out: Array<string | null>): Promise<void> {
    try {
      for (let from = 1; from < parsed.segments.length && !this.closing; from += FILE_TASK_CHUNK) {
        await this.translateRange(p, ip, task, parsed, out, from, Math.min(parsed.segments.length, from + FILE_TASK_CHUNK));
        await this.save(task);
      }
      if (this.closing) return;
      if (task.translated_segments === 0) {
        task.status = 'FAILED';
      } else {
        await this.store.putResult(task.id, parsed.render(out));
        task.status = 'COMPLETED';
        task.message = task.failed_segments
          ? `Translated ${task.translated_segments} of ${task.total_segments} segments (${task.failed_segments} failed; ${task.message}).`
          : `Translated ${task.translated_segments} segments.`;
      }
      task.progress = 100;
      await this.save(task);
    } catch (e) {
      this.logger.warn(`file task ${task.id} failed: ${(e as Error).message}`);
      task.status = 'FAILED';
      task.message = errorResponse(e).body.error;
      await this.save(task).catch(() => undefined);
    }
  }

  private async save(task: StoredFileTask): Promise<void> {
    task.updated_at = this.clock.now().toISOString();
    await this.store.save(task);
    this.realtime.emit([userRoom(task.owner_id)], FILE_PROGRESS_EVENT, fileTaskDto(task));
  }
}
