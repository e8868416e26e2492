/** File translation of the signed-in area (POST /api/translate/file, status, download). */
import type { TranslateFileStartResponse, TranslateFileTaskDto } from '@gaia/contracts';
import { apiFetch, apiJson } from './http';

export const TRANSLATE_FILE_ACCEPT = '.txt,.csv,.tsv,.tmx,.xlf,.xliff';

export function startFileTranslation(
  input: { file: File; modelId: string; srcLang: string; tgtLang: string; column?: string },
  fallbackError: string,
): Promise<TranslateFileStartResponse> {
  const form = new FormData();
  form.append('model_id', input.modelId);
  form.append('src_lang', input.srcLang);
  form.append('tgt_lang', input.tgtLang);
  if (input.column?.trim()) form.append('column', input.column.trim());
  form.append('file', input.file, input.file.name);
  return apiJson('/api/translate/file', { method: 'POST', body: form, idempotencyKey: crypto.randomUUID() }, fallbackError);
}

export async function fileTranslationStatus(taskId: string, fallbackError: string): Promise<TranslateFileTaskDto> {
  return (await apiJson<{ task: TranslateFileTaskDto }>(`/api/translate/file/status?task_id=${encodeURIComponent(taskId)}`, {}, fallbackError)).task;
}

/** The translated file as a Blob, with the name the server gives it. */
export async function downloadTranslatedFile(taskId: string, fallbackError: string): Promise<{ blob: Blob; name: string }> {
  const res = await apiFetch(`/api/translate/file/download?task_id=${encodeURIComponent(taskId)}`, { headers: { Accept: '*/*' } }, fallbackError);
  const disposition = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename="([^"]+)"/i.exec(disposition)?.[1];
  return { blob: await res.blob(), name: star ? decodeURIComponent(star) : (plain ?? 'translation') };
}
