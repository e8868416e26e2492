/** Pure rules of the signed-in area (spec §4, §5, §9). Everything here is unit-tested. */

/** Estimated progress never passes this while the server has not said COMPLETED (spec §4). */
export const ESTIMATE_CAP_PERCENT = 95;
/** Document status polling interval when realtime is unavailable (spec §9). */
export const STATUS_POLL_MS = 2000;
/** Reload after a successful agent update (spec §9). */
export const UPDATE_RELOAD_MS = 15_000;
/** Refresh after a successful builder upload (spec §9). */
export const UPLOAD_RELOAD_MS = 5000;
/** Profile 'saved' message lifetime (spec §9). */
export const SAVED_MESSAGE_MS = 3000;
/** Team error lifetime (spec §9). */
export const TEAM_ERROR_MS = 3000;
/** Ingestion limits (same numbers as @gaia/contracts INGESTION_MAX_*). */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
export const MAX_FILES_PER_UPLOAD = 20;
/** Dashboard cost estimate: $3 per million input tokens plus $15 per million output tokens (spec §9). */
export const INPUT_COST_PER_MILLION = 3;
export const OUTPUT_COST_PER_MILLION = 15;

/** Spec §2: Language Pairs = 2 × agent count (each agent translates both ways). */
export function languagePairs(agentCount: number): number {
  return 2 * agentCount;
}

/** Costs are shown with 6 decimals (spec §9). */
export function formatCost(value: number | null | undefined): string {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : 0;
  return `$${n.toFixed(6)}`;
}

export function estimateCost(inputTokens: number, outputTokens: number): number {
  return (inputTokens * INPUT_COST_PER_MILLION + outputTokens * OUTPUT_COST_PER_MILLION) / 1_000_000;
}

/**
 * Progress bar of a processing task (spec §4): the larger of the server progress and the time-based estimate
 * (elapsed / estimated time, capped at 95%). Percent, 0..100, rounded down.
 */
export function displayedProgress(serverProgress: number, elapsedMs: number, estimatedSeconds: number | null | undefined): number {
  const server = Number.isFinite(serverProgress) ? Math.max(0, Math.min(100, serverProgress)) : 0;
  let estimate = 0;
  if (estimatedSeconds && estimatedSeconds > 0 && elapsedMs > 0) {
    estimate = Math.min(ESTIMATE_CAP_PERCENT, (elapsedMs / (estimatedSeconds * 1000)) * 100);
  }
  return Math.floor(Math.max(server, estimate));
}

/** The simple email pattern of the team invite (spec §5). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type InviteError = 'Please fill in all fields.' | 'Please enter a valid email address.';

/** Team invite validation (spec §5): name and email required, then the email pattern. */
export function validateInvite(name: string, email: string): InviteError | null {
  if (!name.trim() || !email.trim()) return 'Please fill in all fields.';
  if (!EMAIL_PATTERN.test(email.trim())) return 'Please enter a valid email address.';
  return null;
}

export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const i = base.lastIndexOf('.');
  return i > 0 ? base.slice(i + 1).toLowerCase() : '';
}

/**
 * What the Builder accepts: JSON and PDF first (spec §5), plus the other formats the ingestion parsers read
 * (JSON lines, TMX, XML, CSV/TSV, plain text, images for the vision extractor, ZIP/gzip archives).
 */
export const BUILDER_EXTENSIONS = [
  'json',
  'pdf',
  'jsonl',
  'ndjson',
  'tmx',
  'xml',
  'csv',
  'tsv',
  'tab',
  'txt',
  'text',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'zip',
  'gz',
] as const;
export const BUILDER_ACCEPT = BUILDER_EXTENSIONS.map((e) => `.${e}`).join(',');
/** Edit Agent accepts JSON, PDF or TXT (spec §5). */
export const EDIT_EXTENSIONS = ['json', 'pdf', 'txt'] as const;
export const EDIT_ACCEPT = '.json,.pdf,.txt';

export type FileProblem = { kind: 'unsupported' } | { kind: 'tooLarge'; maxMb: number } | { kind: 'empty' };

/** Per-file validation of the Builder (unsupported type, empty, too large). */
export function checkBuilderFile(file: Pick<File, 'name' | 'size'>): FileProblem | null {
  if (!(BUILDER_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return { kind: 'unsupported' };
  if (file.size === 0) return { kind: 'empty' };
  if (file.size > MAX_FILE_BYTES) return { kind: 'tooLarge', maxMb: MAX_FILE_BYTES / (1024 * 1024) };
  return null;
}

/** Edit Agent file check (spec §5): the names of files that are not JSON, PDF or TXT; empty when all are fine. */
export function invalidEditFiles(files: readonly Pick<File, 'name'>[]): string[] {
  return files.filter((f) => !(EDIT_EXTENSIONS as readonly string[]).includes(extensionOf(f.name))).map((f) => f.name);
}

/** The owner view shows the visibility toggle and delete (spec §6); editors see neither. */
export function isOwner(agent: { uid: string } | null | undefined, user: { uid: string } | null | undefined): boolean {
  return !!agent && !!user && agent.uid === user.uid;
}

/** Initials use at most 2 letters (spec §5). */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '')
    .trim()
    .split(/[\s@._-]+/)
    .filter(Boolean);
  if (words.length === 0) return '?';
  const letters = words.length === 1 ? words[0].slice(0, 2) : words[0][0] + words[1][0];
  return letters.toLocaleUpperCase();
}

/** Only same-site paths are accepted as sign-in return targets (no open redirect). */
export { safeNext as safeReturnPath } from '../../auth/sign-in-dialog';

export function curlExample(agent: { id: string; src_lang: string; tgt_lang: string }, origin: string, apiKey = 'YOUR_API_KEY'): string {
  return [
    `curl -N -X POST ${origin}/api/translate/ \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -H "X-API-Key: ${apiKey}" \\`,
    `  -d '${JSON.stringify({ text: 'Hello', model_id: agent.id, src_lang: agent.src_lang, tgt_lang: agent.tgt_lang, stream: true })}'`,
  ].join('\n');
}
