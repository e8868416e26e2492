import { Inject, Injectable } from '@nestjs/common';
import type { TranslateFileTaskDto } from '@gaia/contracts';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';

/** A task as stored: the public DTO plus what only the gateway reads (never answered). */
export interface StoredFileTask extends TranslateFileTaskDto {
  owner_id: string;
  src_lang: string;
  tgt_lang: string;
  column: string | null;
  updated_at: string;
  /**
   * The first segment whose translation is not saved yet; set on tasks run by the durable job (absent on tasks of
   * gateways from before it, which translated in memory). Saved together with the counters after each chunk.
   */
  next_segment?: number;
  /** Who the job translates as (metered to): the owner with the caller's API key (null: a session). */
  key_id?: string | null;
  key_rate_limit?: number | null;
}

/** The translations of segments [from, from + translations.length), as saved after a chunk (null: no translation). */
export interface SavedChunk {
  from: number;
  translations: Array<string | null>;
  /** Why segment from + i has no translation (the first one becomes the task's message). */
  errors?: Array<string | null>;
}

const root = (taskId: string) => `translate-files/${taskId}`;

/**
 * File translation tasks in the shared file storage (every gateway replica sees them): `task.json`
 * (rewritten atomically on progress), the uploaded `source`, the translations of each finished chunk
 * (`chunks/<from>`, until the result is written) and the translated `result`.
 */
@Injectable()
export class TranslateFileTaskStore {
  constructor(@Inject(FILE_STORAGE) private readonly files: FileStorage) {}

  save(task: StoredFileTask): Promise<void> {
    return this.files.put(`${root(task.id)}/task.json`, new TextEncoder().encode(JSON.stringify(task)));
  }

  async load(taskId: string): Promise<StoredFileTask | null> {
    if (!/^[0-9a-f-]{36}$/.test(taskId)) return null;
    const key = `${root(taskId)}/task.json`;
    if (!(await this.files.exists(key))) return null;
    return JSON.parse(new TextDecoder().decode(await this.files.get(key))) as StoredFileTask;
  }

  putSource(taskId: string, bytes: Uint8Array): Promise<void> {
    return this.files.put(`${root(taskId)}/source`, bytes);
  }

  async source(taskId: string): Promise<Uint8Array> {
    return this.files.get(`${root(taskId)}/source`);
  }

  putChunk(taskId: string, chunk: SavedChunk): Promise<void> {
    return this.files.put(`${root(taskId)}/chunks/${chunk.from}`, new TextEncoder().encode(JSON.stringify(chunk)));
  }

  /** Every saved chunk of the task. */
  async chunks(taskId: string): Promise<SavedChunk[]> {
    const keys = await this.files.list(`${root(taskId)}/chunks/`);
    return Promise.all(keys.map(async (k) => JSON.parse(new TextDecoder().decode(await this.files.get(k))) as SavedChunk));
  }

  deleteChunks(taskId: string): Promise<void> {
    return this.files.delete(`${root(taskId)}/chunks/`);
  }

  putResult(taskId: string, text: string): Promise<void> {
    return this.files.put(`${root(taskId)}/result`, new TextEncoder().encode(text));
  }

  result(taskId: string): Promise<Uint8Array> {
    return this.files.get(`${root(taskId)}/result`);
  }
}

/** The public projection of a task (no owner id). */
export function fileTaskDto(t: StoredFileTask): TranslateFileTaskDto {
  return {
    id: t.id,
    status: t.status,
    progress: t.progress,
    message: t.message,
    format: t.format,
    file_name: t.file_name,
    model_id: t.model_id,
    total_segments: t.total_segments,
    translated_segments: t.translated_segments,
    failed_segments: t.failed_segments,
    created_at: t.created_at,
  };
}
