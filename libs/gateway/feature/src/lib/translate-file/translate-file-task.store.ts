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
}

const root = (taskId: string) => `translate-files/${taskId}`;

/**
 * File translation tasks in the shared file storage (every gateway replica sees them): `task.json`
 * (rewritten atomically on progress), the uploaded `source` and the translated `result`.
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
