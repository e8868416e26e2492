/** Calls of the signed-in area that the shared client does not cover: uploads with progress, session translate, owner downloads. */
import { ApiError, apiFetch, buildHeaders, ERROR_CODE_HEADER, errorFrom } from './http';
import { completeResult, jsonResult, SseLineParser, TRANSLATION_FAILED, TRANSLATION_REQUEST_FAILED, TRANSLATE_PATH, type TranslateResult } from './translate-stream';
import type { TranslateJsonResponse, TranslateRequest, TranslationEvent } from './types';

export const INVALID_RESPONSE_FORMAT = 'Invalid response format from server';

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
  return uploadForm<{ task_id: string; model_id: string; total_files: number }>('/api/documents/process/', form, 'Failed to process files', opts);
}

export interface UpdateModelInput {
  modelId: string;
  srcLang: string;
  tgtLang: string;
  description: string;
  coreMemory: string;
  files: File[];
}

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
  return uploadForm<{ success: boolean; task_id?: string }>('/api/update-model/', form, 'Failed to update agent', opts);
}

export function modelFilesName(modelId: string): string {
  return `model_${modelId}_files.zip`;
}

/** The owner's download of an agent's files (GET /api/models/download, with the session). */
export async function downloadModelFiles(modelId: string): Promise<Blob> {
  const res = await apiFetch(`/api/models/download?model_id=${encodeURIComponent(modelId)}`, { headers: { Accept: 'application/zip' } }, 'Failed to download files');
  return res.blob();
}

export interface SessionTranslateOptions {
  signal?: AbortSignal;
  onEvent?: (event: TranslationEvent) => void;
}

/**
 * The owner's test translator: POST /api/translate/ with the session cookie (and CSRF header), streamed.
 * Owners and editors may test private agents this way. Resolves with the final translation.
 */
export async function translateWithSession(req: TranslateRequest, opts: SessionTranslateOptions = {}): Promise<TranslateResult> {
  const headers = buildHeaders('POST', {}, true);
  headers.set('Accept', 'text/event-stream, application/json');
  const res = await fetch(TRANSLATE_PATH, { method: 'POST', credentials: 'same-origin', headers, body: JSON.stringify({ ...req, stream: true }), signal: opts.signal });
  if (!res.ok) {
    throw await errorFrom(res, TRANSLATION_REQUEST_FAILED);
  }
  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.includes('stream') || !res.body) {
    let body: TranslateJsonResponse;
    try {
      body = (await res.json()) as TranslateJsonResponse;
    } catch {
      throw new Error(INVALID_RESPONSE_FORMAT);
    }
    if (!body || typeof body !== 'object') throw new Error(INVALID_RESPONSE_FORMAT);
    if (!body.success || !body.data) throw new Error(body.error || TRANSLATION_FAILED);
    return jsonResult({ ...body, data: body.data });
  }
  let accumulated = '';
  let final: TranslateResult | null = null;
  let failure: string | null = null;
  const parser = new SseLineParser((event) => {
    if (event.type === 'translation_chunk') accumulated += event.content ?? '';
    if (event.type === 'translation_complete') final = completeResult(event, accumulated);
    if (event.type === 'error') failure = event.message || TRANSLATION_REQUEST_FAILED;
    opts.onEvent?.(event);
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.push(decoder.decode(value, { stream: true }));
  }
  parser.push(decoder.decode());
  parser.end();
  if (failure) throw new Error(failure);
  return final ?? { translation: accumulated, responseTime: null, confidence: null, untranslated: [] };
}
