import { apiFetch, apiJson } from './http';
import type { AgentDto, PublicConfigDto } from './types';

export const MODEL_NOT_FOUND = 'Model not found.';
export const FAILED_TO_FETCH_MODEL = 'Failed to fetch model details.';

let configPromise: Promise<PublicConfigDto> | null = null;

/** GET /api/public/config, fetched once per page load (retried after a failure). */
export function getPublicConfig(): Promise<PublicConfigDto> {
  if (!configPromise) {
    configPromise = apiJson<PublicConfigDto>('/api/public/config').catch((err) => {
      configPromise = null;
      throw err;
    });
  }
  return configPromise;
}

export function resetPublicConfigCache(): void {
  configPromise = null;
}

export async function listPublicAgents(): Promise<AgentDto[]> {
  const body = await apiJson<{ agents: AgentDto[] }>('/api/agents/public');
  return body.agents ?? [];
}

export function getAgent(id: string): Promise<AgentDto> {
  return apiJson<AgentDto>(`/api/agents/${encodeURIComponent(id)}`, {}, FAILED_TO_FETCH_MODEL);
}

export function datasetFileName(modelId: string): string {
  return `dataset_${modelId}_files.zip`;
}

/** GET /api/models/download?model_id= → the zip as a Blob. */
export async function downloadDataset(modelId: string): Promise<Blob> {
  const res = await apiFetch(`/api/models/download?model_id=${encodeURIComponent(modelId)}`, { headers: { Accept: 'application/zip' } }, 'Failed to download dataset');
  return res.blob();
}

/** Hands a Blob to the browser as a file download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
