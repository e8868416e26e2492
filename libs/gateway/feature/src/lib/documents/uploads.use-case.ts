import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ingestionUploadKey, type RpcResponse } from '@gaia/contracts';
import { DomainError, isDomainError } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';

export interface UploadedFile {
  fieldname: string;
  originalname: string;
  size: number;
  buffer: Buffer;
}

export const FILL_REQUIRED = 'Please fill in all required fields';

/** Keeps the base name only, with a conservative character set (the original name is kept in the task). */
export function sanitizeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? 'file';
  const clean = base
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/^\.+/, '')
    .slice(0, 120);
  return clean || 'file';
}

/** DomainError statuses from here on are outages (the task may be registered), below it refusals (nothing is). */
const SERVER_ERROR_STATUS = 500;

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/**
 * documents/process and update-model (file count and size were checked by the multipart parser, GatewayModule): writes every original
 * to FILE_STORAGE (`uploads/<uploadId>/<n>-<name>`) before the task is acknowledged, then hands it to ingestion.
 */
@Injectable()
export class UploadsUseCase {
  private readonly logger = new Logger('Uploads');

  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  async process(
    user: { id: string; email: string },
    fields: Record<string, unknown>,
    files: UploadedFile[],
    idempotencyKey: string | undefined,
    requestId: string | undefined,
  ): Promise<RpcResponse<'ingestion.start-processing.v1'>> {
    const srcLang = str(fields['src_lang']).toLowerCase();
    const tgtLang = str(fields['tgt_lang']).toLowerCase();
    const customPrompt = str(fields['custom_prompt']);
    if (!srcLang || !tgtLang || !customPrompt || files.length === 0) throw DomainError.invalid(FILL_REQUIRED, 'fields_required');
    const { uploadId, refs } = await this.store(files);
    return this.registered(uploadId, () =>
      this.rpc.call('ingestion.start-processing.v1', {
        mode: 'create',
        ownerId: user.id,
        srcLang,
        tgtLang,
        customPrompt,
        coreMemory: str(fields['core_memory']),
        files: refs,
        idempotencyKey: idempotencyKey ? `${user.id}:${idempotencyKey}` : undefined,
        requestId,
      }),
    );
  }

  async update(
    user: { id: string; email: string },
    fields: Record<string, unknown>,
    files: UploadedFile[],
    idempotencyKey: string | undefined,
    requestId: string | undefined,
  ): Promise<{ success: true; task_id?: string }> {
    const modelId = str(fields['model_id']);
    if (!modelId) throw DomainError.invalid('model_id is required.', 'model_id_required');
    const viewer = { uid: user.id, email: user.email.toLowerCase() };
    const { agent } = await this.rpc.call('agents.access.v1', { agentId: modelId, viewer, need: 'edit' });
    const patch: Record<string, string> = {};
    for (const k of ['src_lang', 'tgt_lang', 'custom_prompt', 'core_memory'] as const) {
      if (typeof fields[k] === 'string') patch[k] = k.endsWith('_lang') ? str(fields[k]).toLowerCase() : str(fields[k]);
    }
    for (const k of ['src_lang', 'tgt_lang', 'custom_prompt'] as const)
      if (k in patch && !patch[k]) throw DomainError.invalid(FILL_REQUIRED, 'fields_required');
    const declared = Number(str(fields['file_count']) || files.length);
    if (Number.isFinite(declared) && declared !== files.length)
      throw DomainError.invalid(`file_count is ${declared} but ${files.length} files were sent.`, 'file_count_mismatch');
    const changed = Object.entries(patch).some(([k, v]) => (agent as Record<string, unknown>)[k] !== v);
    let current = agent;
    if (changed) current = await this.rpc.call('agents.update.v1', { agentId: modelId, viewer, patch });
    if (!files.length) return { success: true };
    const { uploadId, refs } = await this.store(files);
    const task = await this.registered(uploadId, () =>
      this.rpc.call('ingestion.start-processing.v1', {
        mode: 'update',
        agentId: modelId,
        ownerId: current.uid,
        srcLang: current.src_lang,
        tgtLang: current.tgt_lang,
        customPrompt: current.custom_prompt,
        coreMemory: current.core_memory,
        files: refs,
        idempotencyKey: idempotencyKey ? `${user.id}:${idempotencyKey}` : undefined,
        requestId,
      }),
    );
    return { success: true, task_id: task.task_id };
  }

  /**
   * Registers stored originals with ingestion; when ingestion refuses them (a 4xx: nothing registered, so no task or
   * agent will ever own or delete them) they are removed at once. An outage leaves them (the task may exist): ingestion's
   * sweep of unclaimed uploads deletes them a day later if no task claimed them.
   */
  private async registered<T>(uploadId: string, register: () => Promise<T>): Promise<T> {
    try {
      return await register();
    } catch (e) {
      if (isDomainError(e) && (e as DomainError).status < SERVER_ERROR_STATUS) await this.storage.delete(`uploads/${uploadId}/`);
      throw e;
    }
  }

  private async store(files: UploadedFile[]): Promise<{ uploadId: string; refs: { key: string; filename: string; size: number }[] }> {
    const uploadId = randomUUID();
    const refs = [];
    for (let i = 0; i < files.length; i++) {
      const f = files[i];
      const key = `${ingestionUploadKey(uploadId, i)}-${sanitizeFilename(f.originalname)}`;
      await this.storage.put(key, f.buffer);
      refs.push({ key, filename: f.originalname.slice(0, 512) || `file-${i}`, size: f.size });
    }
    this.logger.debug(`stored ${files.length} originals under uploads/${uploadId}/`);
    return { uploadId, refs };
  }
}
