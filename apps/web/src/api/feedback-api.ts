import type { CorrectionDto, GlossaryTermDto, GlossaryTermInput } from '@gaia/contracts';
import { FIELD_MAX_LENGTH } from '@gaia/contracts';
import { apiJson } from './http';

/** The server's limits of the feedback fields, taken from the contracts so they cannot drift. */
export const FEEDBACK_LIMITS = {
  term: FIELD_MAX_LENGTH.term,
  translation: FIELD_MAX_LENGTH.translation,
  note: FIELD_MAX_LENGTH.note,
  corrected: FIELD_MAX_LENGTH.corrected,
  glossary_file: FIELD_MAX_LENGTH.glossary_file,
};

/** Corrections and glossary of an agent (owner or editor; session cookie + CSRF). */
const base = (agentId: string) => `/api/agents/${encodeURIComponent(agentId)}`;
const page = (cursor: string | null) => (cursor ? `?cursor=${encodeURIComponent(cursor)}` : '');

export interface CorrectionPage {
  corrections: CorrectionDto[];
  next_cursor: string | null;
}
export interface GlossaryPage {
  terms: GlossaryTermDto[];
  next_cursor: string | null;
}
export type GlossaryFormat = 'csv' | 'tsv' | 'tbx';

export const listCorrections = (agentId: string, cursor: string | null = null) => apiJson<CorrectionPage>(`${base(agentId)}/corrections${page(cursor)}`);
export const addCorrection = (agentId: string, body: { source: string; translation: string; corrected: string }) =>
  apiJson<CorrectionDto>(`${base(agentId)}/corrections`, { method: 'POST', body });
export const undoCorrection = (agentId: string, id: string) =>
  apiJson<{ success: true }>(`${base(agentId)}/corrections/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const listGlossary = (agentId: string, cursor: string | null = null) => apiJson<GlossaryPage>(`${base(agentId)}/glossary${page(cursor)}`);
export const addGlossaryTerm = (agentId: string, body: GlossaryTermInput) => apiJson<GlossaryTermDto>(`${base(agentId)}/glossary`, { method: 'POST', body });
export const updateGlossaryTerm = (agentId: string, id: string, body: GlossaryTermInput) =>
  apiJson<GlossaryTermDto>(`${base(agentId)}/glossary/${encodeURIComponent(id)}`, { method: 'PUT', body });
export const deleteGlossaryTerm = (agentId: string, id: string) =>
  apiJson<{ success: true }>(`${base(agentId)}/glossary/${encodeURIComponent(id)}`, { method: 'DELETE' });
export const importGlossary = (agentId: string, format: GlossaryFormat, text: string) =>
  apiJson<{ added: number; updated: number; total: number }>(`${base(agentId)}/glossary/import`, { method: 'POST', body: { format, glossary_file: text } });

/** The import format of a file, from its name (null when unsupported). */
export function glossaryFormatOf(filename: string): GlossaryFormat | null {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  if (ext === 'csv') return 'csv';
  if (ext === 'tsv' || ext === 'tab' || ext === 'txt') return 'tsv';
  if (ext === 'tbx' || ext === 'xml') return 'tbx';
  return null;
}

/** Query keys of the feedback lists: outside ['agents'], so an agent's update or deletion does not refetch them (a deleted agent's lists would answer 404). */
export const feedbackKeys = {
  corrections: (agentId: string) => ['agent-feedback', 'corrections', agentId] as const,
  glossary: (agentId: string) => ['agent-feedback', 'glossary', agentId] as const,
};
