/** Calls of the signed-in area that the shared client does not cover: uploads with progress, owner downloads. */
import type { ProcessDocumentsResponse, UpdateModelResponse } from '@gaia/contracts';
import { ApiError, buildHeaders, ERROR_CODE_HEADER } from './http';

export interface UploadOptions {
  onProgress?: (fraction: number) => void;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/**
 * Multipart POST through XMLHttpRequest so the upload reports progress (fetch cannot).
 * Sends the session cookie and the CSRF header; a non-2xx answer rejects with ApiError(server error | fallback).
 */
export function uploadForm<T>(path: string, form: FormData, fallbackError: string, opts: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    buildHeaders('POST', { idempotencyKey: opts.idempotencyKey }, false).forEach((value, key) => xhr.setRequestHeader(key, value));
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        opts.onProgress?.(1);
        resolve(body as T);
        return;
      }
      const msg = body && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : fallbackError;
      reject(new ApiError(msg, xhr.status, xhr.getResponseHeader(ERROR_CODE_HEADER)));
    };
    xhr.onerror = () => reject(new ApiError(fallbackError, 0));
    xhr.onabort = () => reject(new ApiError(fallbackError, 0));
    opts.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

export interface ProcessDocumentsInput {
  srcLang: string;
  tgtLang: string;
  description: string;
  coreMemory: string;
  files: File[];
}

/** POST /api/documents/process/ (spec §7): languages are sent lowercased. */
export function processDocumentsWithProgress(input: ProcessDocumentsInput, opts: UploadOptions = {}) {
  const form = new FormData();
  form.append('src_lang', input.srcLang.trim().toLowerCase());
  form.append('tgt_lang', input.tgtLang.trim().toLowerCase());
  form.append('custom_prompt', input.description.trim());
  form.append('core_memory', input.coreMemory.trim());
  for (const f of input.files) form.append('files', f, f.name);
  return uploadForm<ProcessDocumentsResponse>('/api/documents/process/', form, 'Failed to process files', opts);
}

export interface UpdateModelInput {
  modelId: string;
  srcLang: string;
  tgtLang: string;
  description: string;
  coreMemory: string;
  files: File[];
}

export const UPDATE_AGENT_FAILED = 'Failed to update agent';

/** POST /api/update-model/ (spec §7): parallel_sentences_{n} files and file_count. */
export function updateModelWithFiles(input: UpdateModelInput, opts: UploadOptions = {}) {
  const form = new FormData();
  form.append('model_id', input.modelId);
  form.append('src_lang', input.srcLang.trim().toLowerCase());
  form.append('tgt_lang', input.tgtLang.trim().toLowerCase());
  form.append('custom_prompt', input.description.trim());
  form.append('core_memory', input.coreMemory.trim());
  input.files.forEach((f, i) => form.append(`parallel_sentences_${i}`, f, f.name));
  form.append('file_count', String(input.files.length));
  return uploadForm<UpdateModelResponse>('/api/update-model/', form, UPDATE_AGENT_FAILED, opts);
}

export function modelFilesName(modelId: string): string {
  return `model_${modelId}_files.zip`;
}
