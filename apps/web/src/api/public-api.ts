import { apiFetch, apiJson } from './http';
import type { AgentView, PublicAgentDto, PublicConfigDto } from '@gaia/contracts';

export const MODEL_NOT_FOUND = 'Model not found.';
export const FAILED_TO_FETCH_MODEL = 'Failed to fetch model details.';

/** GET /api/public/config (read through the query cache: publicConfigQuery). */
export const getPublicConfig = () => apiJson<PublicConfigDto>('/api/public/config');

export async function listPublicAgents(): Promise<PublicAgentDto[]> {
  const body = await apiJson<{ agents: PublicAgentDto[] }>('/api/agents/public');
  return body.agents ?? [];
}

/** One agent as the viewer may see it: the full record for the owner and editors, the public projection otherwise. */
export function getAgent(id: string): Promise<AgentView> {
  return apiJson<AgentView>(`/api/agents/${encodeURIComponent(id)}`, {}, FAILED_TO_FETCH_MODEL);
}

export function datasetFileName(modelId: string): string {
  return `dataset_${modelId}_files.zip`;
}

export const DATASET_DOWNLOAD_FAILED = 'Failed to download dataset';

/** GET /api/models/download?model_id= → an agent's files as a zip Blob (public agents for anyone; the owner's and editors' own). */
export async function downloadAgentFiles(modelId: string, fallbackError = DATASET_DOWNLOAD_FAILED): Promise<Blob> {
  const res = await apiFetch(`/api/models/download?model_id=${encodeURIComponent(modelId)}`, { headers: { Accept: 'application/zip' } }, fallbackError);
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
