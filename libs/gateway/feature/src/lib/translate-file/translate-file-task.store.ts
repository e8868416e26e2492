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
  /** Set on load for a task stored in the legacy layout (`translate-files/<task>/`); never written. */
  legacy?: boolean;
}

/** The translations of segments [from, from + translations.length), as saved after a chunk (null: no translation). */
export interface SavedChunk {
  from: number;
  translations: Array<string | null>;
  /** Why segment from + i has no translation (the first one becomes the task's message). */
  errors?: Array<string | null>;
}

/** Where a task of an owner lives: under the owner, so the account's tasks are one prefix (erased at once). */
const OWNERS_ROOT = 'file-tasks';
/** Where tasks of gateways from before the owner prefix live (`translate-files/<task>/`): still read, erased by a scan. */
const LEGACY_ROOT = 'translate-files';
const TASK_ID = /^[0-9a-f-]{36}$/;
/** Owner ids are UUIDs; anything else (a path segment such as `..`) names no task. */
const OWNER_ID = /^[0-9A-Za-z_-]{1,64}$/;

/** The storage prefix of a task (no trailing slash). */
const rootOf = (t: TaskRef): string => (t.legacy ? `${LEGACY_ROOT}/${t.id}` : `${OWNERS_ROOT}/${t.owner_id}/${t.id}`);

/** What locates a task's files: its id, its owner and whether it is stored in the legacy layout. */
export type TaskRef = Pick<StoredFileTask, 'id' | 'owner_id' | 'legacy'>;

/**
 * File translation tasks in the shared file storage (every gateway replica sees them), under their owner:
 * `file-tasks/<owner>/<task>/` with `task.json` (rewritten atomically on progress), the uploaded `source`, the
 * translations of each finished chunk (`chunks/<from>`, until the result is written) and the translated `result`.
 * A task is only ever read under the caller's own prefix (tenant scoping by key), and an account's tasks are
 * erased as one prefix. Tasks of gateways from before the owner prefix (`translate-files/<task>/`) are still
 * read (their `owner_id` must match) and erased by a scan of that legacy root.
 */
@Injectable()
export class TranslateFileTaskStore {
  constructor(@Inject(FILE_STORAGE) private readonly files: FileStorage) {}

  save(task: StoredFileTask): Promise<void> {
    // `legacy` is where the task was found, not part of it (JSON leaves an undefined field out).
    return this.files.put(`${rootOf(task)}/task.json`, new TextEncoder().encode(JSON.stringify({ ...task, legacy: undefined })));
  }

  /** The task `taskId` of `ownerId` (null when it does not exist or belongs to someone else). */
  async load(ownerId: string, taskId: string): Promise<StoredFileTask | null> {
    if (!TASK_ID.test(taskId) || !OWNER_ID.test(ownerId)) return null;
    const own = await this.read({ id: taskId, owner_id: ownerId });
    if (own) return own.owner_id === ownerId ? own : null;
    const legacy = await this.loadLegacy(taskId);
    return legacy?.owner_id === ownerId ? legacy : null;
  }

  /** A task of the legacy layout by id alone (jobs enqueued by gateways from before the owner prefix). */
  async loadLegacy(taskId: string): Promise<StoredFileTask | null> {
    if (!TASK_ID.test(taskId)) return null;
    return this.read({ id: taskId, owner_id: '', legacy: true });
  }

  private async read(ref: TaskRef): Promise<StoredFileTask | null> {
    const key = `${rootOf(ref)}/task.json`;
    if (!(await this.files.exists(key))) return null;
    const task = JSON.parse(new TextDecoder().decode(await this.files.get(key))) as StoredFileTask;
    return ref.legacy ? { ...task, legacy: true } : task;
  }

  putSource(t: TaskRef, bytes: Uint8Array): Promise<void> {
    return this.files.put(`${rootOf(t)}/source`, bytes);
  }

  async source(t: TaskRef): Promise<Uint8Array> {
    return this.files.get(`${rootOf(t)}/source`);
  }

  putChunk(t: TaskRef, chunk: SavedChunk): Promise<void> {
    return this.files.put(`${rootOf(t)}/chunks/${chunk.from}`, new TextEncoder().encode(JSON.stringify(chunk)));
  }

  /** Every saved chunk of the task. */
  async chunks(t: TaskRef): Promise<SavedChunk[]> {
    const keys = await this.files.list(`${rootOf(t)}/chunks/`);
    return Promise.all(keys.map(async (k) => JSON.parse(new TextDecoder().decode(await this.files.get(k))) as SavedChunk));
  }

  deleteChunks(t: TaskRef): Promise<void> {
    return this.files.delete(`${rootOf(t)}/chunks/`);
  }

  putResult(t: TaskRef, text: string): Promise<void> {
    return this.files.put(`${rootOf(t)}/result`, new TextEncoder().encode(text));
  }

  result(t: TaskRef): Promise<Uint8Array> {
    return this.files.get(`${rootOf(t)}/result`);
  }

  /** Every stored object of one task. */
  deleteTask(t: TaskRef): Promise<void> {
    return this.files.delete(`${rootOf(t)}/`);
  }

  /**
   * Every stored object of every task of `ownerId` (account deletion): the owner's prefix, and the legacy tasks
   * whose task.json names the owner. Answers how many legacy tasks it removed.
   */
  async deleteOwner(ownerId: string): Promise<number> {
    if (!OWNER_ID.test(ownerId)) throw new Error(`not an owner id: ${ownerId}`);
    await this.files.delete(`${OWNERS_ROOT}/${ownerId}/`);
    const legacy = await this.legacyTasksOf(ownerId);
    for (const task of legacy) await this.deleteTask(task);
    return legacy.length;
  }

  /** Every task of `ownerId` (the account export), oldest first. */
  async tasksOf(ownerId: string): Promise<StoredFileTask[]> {
    if (!OWNER_ID.test(ownerId)) return [];
    const own: StoredFileTask[] = [];
    for (const key of await this.files.list(`${OWNERS_ROOT}/${ownerId}/`)) {
      const m = /^file-tasks\/[^/]+\/([0-9a-f-]{36})\/task\.json$/.exec(key);
      const task = m ? await this.read({ id: m[1], owner_id: ownerId }) : null;
      if (task?.owner_id === ownerId) own.push(task);
    }
    return [...own, ...(await this.legacyTasksOf(ownerId))].sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  /** The legacy-layout tasks whose task.json names `ownerId` (a scan of the legacy root, which no longer grows). */
  private async legacyTasksOf(ownerId: string): Promise<StoredFileTask[]> {
    const out: StoredFileTask[] = [];
    for (const key of await this.files.list(`${LEGACY_ROOT}/`)) {
      const m = /^translate-files\/([0-9a-f-]{36})\/task\.json$/.exec(key);
      const task = m ? await this.read({ id: m[1], owner_id: '', legacy: true }) : null;
      if (task?.owner_id === ownerId) out.push(task);
    }
    return out;
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
