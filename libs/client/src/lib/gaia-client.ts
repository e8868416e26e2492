import type { z } from 'zod';
import type {
  AgentDto,
  AgentView,
  ApiKeyDto,
  CorrectionDto,
  GlossaryTermDto,
  GlossaryTermInput,
  CreateApiKeyReplayResponse,
  CreateApiKeyResponse,
  IngestionTaskDto,
  KeyUsageDto,
  PlanId,
  PublicConfigDto,
  RpcResponse,
  TeamMemberDto,
  TranslateBatchEvent,
  TranslateBatchHttpBody,
  TranslateBatchJsonResponse,
  TranslateFileFields,
  TranslateFileStartResponse,
  TranslateFileTaskDto,
  TranslateHttpBody,
  TranslateJsonResponse,
  TranslationEventDto,
  UsageSummaryDto,
  UserDto,
  agentPatchBodySchema,
  signUpBodySchema,
  updateAccountBodySchema,
} from '@gaia/contracts';
import { GaiaApiError, GaiaNetworkError, GaiaServerError, errorFor, parseRetryAfter } from './errors';
import { ROUTES, type Route } from './routes';
import { parseSse } from './sse';

/** Opt-in retry of refused (429) and unavailable (503) answers, honouring their Retry-After. */
export interface RetryOptions {
  /** Further attempts after the first. */
  retries: number;
  /** A Retry-After longer than this is not waited for: the error is thrown (default 60 s). */
  maxDelayMs?: number;
  /** Wait when the answer has no Retry-After, doubled on each attempt (default 500 ms). */
  baseDelayMs?: number;
  /** Called before each wait (logging, progress). */
  onRetry?: (info: { attempt: number; status: number; delayMs: number; route: string }) => void;
}

export interface GaiaClientOptions {
  /** Origin of the Gaia deployment, e.g. `https://gaia.example.org` (the API is under `/api`). */
  baseUrl: string;
  /** Sent as X-API-Key (translation calls); account calls use the session of signIn/signUp instead. */
  apiKey?: string;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Off unless given. */
  retry?: RetryOptions;
  /** Makes the Idempotency-Key of each write (default `crypto.randomUUID()`). */
  idempotencyKey?: () => string;
}

/** Per-call options of a write: a fixed Idempotency-Key (so a repeat is replayed, not done twice). */
export interface WriteOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export type SignUpBody = z.input<typeof signUpBodySchema>;
export type AccountPatch = z.input<typeof updateAccountBodySchema>;
export type AgentPatchBody = z.input<typeof agentPatchBodySchema>;
/** One translation; `explain: true` also answers `explanation` (the examples, lexicon and glossary entries that shaped it). */
export type TranslateRequest = Omit<TranslateHttpBody, 'stream'>;
/**
 * The JSON answer of `translate`: the translation, `confidence` (0..1, expected quality), `untranslated` spans,
 * `applied_terms` (the agent's glossary terms applied) and, when asked with `explain: true`, `explanation`.
 */
export type TranslateAnswer = TranslateJsonResponse;
export type { AppliedTerm, TranslationExplanation, TranslationEventDto } from '@gaia/contracts';
export type TranslateBatchRequest = Omit<TranslateBatchHttpBody, 'stream'>;
/** A file to translate and where: the agent, languages, CSV/TSV column (name or 0-based index). */
export type TranslateFileRequest = TranslateFileFields & { file: UploadFile };
export type PublicAgentList = RpcResponse<'agents.list-public.v1'>;
export type TeamList = RpcResponse<'agents.team-list.v1'>;
/** A file to upload: a Blob/File, or bytes with a name. */
export type UploadFile = Blob | { name: string; data: Uint8Array | ArrayBuffer | string; type?: string };

export interface AgentUpload {
  src_lang: string;
  tgt_lang: string;
  custom_prompt: string;
  core_memory?: string;
  files: UploadFile[];
}

const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
const DEFAULT_BASE_RETRY_DELAY_MS = 500;
/** Status polling of a file translation (the spec's 2 s). */
const DEFAULT_POLL_INTERVAL_MS = 2000;
const RETRYABLE_STATUSES = new Set([429, 503]);
const SESSION_COOKIES = ['gaia_session', 'gaia_csrf'];
const CSRF_COOKIE = 'gaia_csrf';
const UNSAFE = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  json?: unknown;
  form?: FormData;
  write?: WriteOptions;
  accept?: string;
  /** Sends the API key (translation calls). */
  keyed?: boolean;
}

const fileName = (f: UploadFile, i: number) => ('name' in f && typeof f.name === 'string' && f.name ? f.name : `file-${i}`);
function toBlob(f: UploadFile): Blob {
  if (f instanceof Blob) return f;
  const data = typeof f.data === 'string' ? new TextEncoder().encode(f.data) : f.data instanceof Uint8Array ? f.data : new Uint8Array(f.data);
  return new Blob([data as Uint8Array<ArrayBuffer>], { type: f.type ?? 'application/octet-stream' });
}

/**
 * Typed client of the Gaia HTTP API (docs/openapi.json), with no dependency beyond `fetch`. Errors are
 * GaiaApiError subclasses carrying the server's message and status; writes carry an Idempotency-Key
 * (reused by retries); translation streams are async iterators of the SSE events.
 * Outside a browser it keeps the session cookies of signUp/signIn itself and echoes the CSRF token.
 */
export class GaiaClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly cookies = new Map<string, string>();

  constructor(private readonly options: GaiaClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const f = options.fetch ?? globalThis.fetch;
    if (!f) throw new Error('GaiaClient needs fetch (Node.js 18+ or a browser), or pass options.fetch.');
    this.fetchImpl = f.bind(globalThis);
  }

  /** A client with the same settings and another API key (or none). */
  withApiKey(apiKey: string | undefined): GaiaClient {
    return new GaiaClient({ ...this.options, apiKey });
  }

  // Health and public configuration
  health(): Promise<{ status: 'ok' }> {
    return this.json(ROUTES.health);
  }
  ready(): Promise<{ status: string; transport: string; checks: Array<{ name: string; ok: boolean; ms: number; error?: string }> }> {
    return this.json(ROUTES.ready);
  }
  publicConfig(): Promise<PublicConfigDto> {
    return this.json(ROUTES.publicConfig);
  }

  // Session
  signUp(body: SignUpBody, o?: WriteOptions): Promise<{ user: UserDto }> {
    return this.json(ROUTES.signUp, { json: body, write: o });
  }
  signIn(body: { email: string; password: string }, o?: WriteOptions): Promise<{ user: UserDto }> {
    return this.json(ROUTES.signIn, { json: body, write: o });
  }
  async signOut(o?: WriteOptions): Promise<void> {
    await this.send(ROUTES.signOut, { write: o });
    for (const c of SESSION_COOKIES) this.cookies.delete(c);
  }
  me(): Promise<{ user: UserDto }> {
    return this.json(ROUTES.me);
  }
  session(): Promise<{ user: UserDto | null }> {
    return this.json(ROUTES.session);
  }
  /** Confirms the email address with the token of the mailed link (signed in or not). */
  verifyEmail(token: string, o?: WriteOptions): Promise<{ verified: true; email: string }> {
    return this.json(ROUTES.verifyEmail, { json: { token }, write: o });
  }
  resendVerificationEmail(o?: WriteOptions): Promise<{ success: true }> {
    return this.json(ROUTES.resendVerificationEmail, { write: o });
  }

  // Account
  account(): Promise<UserDto> {
    return this.json(ROUTES.account);
  }
  updateAccount(patch: AccountPatch, o?: WriteOptions): Promise<UserDto> {
    return this.json(ROUTES.updateAccount, { json: patch, write: o });
  }
  /** Deletes the account and everything it owns; `email` confirms it. */
  async deleteAccount(email: string, o?: WriteOptions): Promise<{ success: true }> {
    const r = await this.json<{ success: true }>(ROUTES.deleteAccount, { json: { email }, write: o });
    for (const c of SESSION_COOKIES) this.cookies.delete(c);
    return r;
  }
  /** Everything the account owns, as one zip (profile, agents and their data, key metadata, usage, team). */
  async exportAccount(): Promise<Uint8Array> {
    const res = await this.send(ROUTES.exportAccount, { keyed: true, accept: 'application/zip' });
    return new Uint8Array(await res.arrayBuffer());
  }
  /** Free applies at once; Starter or Enterprise is recorded as a request the operator grants. */
  requestPlan(plan: PlanId, o?: WriteOptions): Promise<RpcResponse<'billing.request-plan.v1'>> {
    return this.json(ROUTES.requestPlan, { json: { plan }, write: o });
  }

  // Agents
  listPublicAgents(): Promise<PublicAgentList> {
    return this.json(ROUTES.listPublicAgents);
  }
  listMyAgents(): Promise<{ owned: AgentDto[]; shared: AgentDto[] }> {
    return this.json(ROUTES.listMyAgents);
  }
  getAgent(id: string): Promise<AgentView> {
    return this.json(ROUTES.getAgent, { params: { id } });
  }
  updateAgent(id: string, patch: AgentPatchBody, o?: WriteOptions): Promise<AgentDto> {
    return this.json(ROUTES.updateAgent, { params: { id }, json: patch, write: o });
  }
  setAgentVisibility(id: string, isPublic: boolean, o?: WriteOptions): Promise<AgentDto> {
    return this.json(ROUTES.setAgentVisibility, { params: { id }, json: { public: isPublic }, write: o });
  }
  deleteAgent(modelId: string, o?: WriteOptions): Promise<{ success: true }> {
    return this.json(ROUTES.deleteAgent, { json: { model_id: modelId }, write: o });
  }

  // Public corpora and documents (building and feeding agents)
  listPublicCorpora(srcLang: string, tgtLang: string): Promise<RpcResponse<'ingestion.list-public-corpora.v1'>> {
    return this.json(ROUTES.listPublicCorpora, { query: { src_lang: srcLang, tgt_lang: tgtLang } });
  }
  /** Imports a listed corpus into a new agent, or into `model_id` (owner only). */
  importPublicCorpus(
    req: { corpus: string; src_lang: string; tgt_lang: string; format?: 'moses' | 'tmx'; model_id?: string },
    o?: WriteOptions,
  ): Promise<RpcResponse<'ingestion.import-public-corpus.v1'>> {
    return this.json(ROUTES.importPublicCorpus, { json: req, write: o });
  }
  processDocuments(upload: AgentUpload, o?: WriteOptions): Promise<{ task_id: string; model_id: string; total_files: number }> {
    const form = new FormData();
    for (const k of ['src_lang', 'tgt_lang', 'custom_prompt', 'core_memory'] as const) if (upload[k] !== undefined) form.append(k, upload[k] as string);
    upload.files.forEach((f, i) => form.append('files', toBlob(f), fileName(f, i)));
    return this.json(ROUTES.processDocuments, { form, write: o });
  }
  documentStatus(taskId: string): Promise<{ task: IngestionTaskDto }> {
    return this.json(ROUTES.documentStatus, { query: { task_id: taskId } });
  }
  updateAgentData(
    modelId: string,
    fields: Partial<Omit<AgentUpload, 'files'>> & { files?: UploadFile[] },
    o?: WriteOptions,
  ): Promise<{ success: boolean; task_id?: string }> {
    const form = new FormData();
    form.append('model_id', modelId);
    for (const k of ['src_lang', 'tgt_lang', 'custom_prompt', 'core_memory'] as const) if (fields[k] !== undefined) form.append(k, fields[k] as string);
    const files = fields.files ?? [];
    files.forEach((f, i) => form.append(`parallel_sentences_${i}`, toBlob(f), fileName(f, i)));
    form.append('file_count', String(files.length));
    return this.json(ROUTES.updateAgentData, { form, write: o });
  }
  /** The agent's dataset as a zip. */
  async downloadDataset(modelId: string): Promise<Uint8Array> {
    const res = await this.send(ROUTES.downloadDataset, { query: { model_id: modelId } });
    return new Uint8Array(await res.arrayBuffer());
  }

  // API keys and usage
  createApiKey(name: string, o?: WriteOptions): Promise<CreateApiKeyResponse | CreateApiKeyReplayResponse> {
    return this.json(ROUTES.createApiKey, { json: { name }, write: o });
  }
  listApiKeys(): Promise<{ success: true; api_keys: ApiKeyDto[] }> {
    return this.json(ROUTES.listApiKeys);
  }
  revokeApiKey(keyId: string, o?: WriteOptions): Promise<{ success: true }> {
    return this.json(ROUTES.revokeApiKey, { json: { key_id: keyId }, write: o });
  }
  apiKeyUsage(keyId: string): Promise<{ success: true; usage: KeyUsageDto }> {
    return this.json(ROUTES.apiKeyUsage, { query: { key_id: keyId } });
  }
  usageSummary(): Promise<UsageSummaryDto> {
    return this.json(ROUTES.usageSummary);
  }

  // Team
  listTeam(): Promise<TeamList> {
    return this.json(ROUTES.listTeam);
  }
  inviteTeamMember(member: { name: string; email: string }, o?: WriteOptions): Promise<TeamMemberDto> {
    return this.json(ROUTES.inviteTeamMember, { json: member, write: o });
  }
  async removeTeamMember(id: string, o?: WriteOptions): Promise<void> {
    await this.send(ROUTES.removeTeamMember, { params: { id }, write: o });
  }
  /** Accepts a team invitation with the token of the mailed link (the invited, verified email must be yours). */
  acceptTeamInvitation(token: string, o?: WriteOptions): Promise<RpcResponse<'agents.team-accept.v1'>> {
    return this.json(ROUTES.acceptTeamInvitation, { json: { token }, write: o });
  }

  // Corrections and glossary (owner or editor: session or the owner's API key)
  /** Suggest a better translation: the next identical request answers it; similar ones use it as an example. */
  addCorrection(agentId: string, correction: { source: string; translation?: string; corrected: string }, o?: WriteOptions): Promise<CorrectionDto> {
    return this.json(ROUTES.addCorrection, { params: { id: agentId }, json: correction, write: o, keyed: true });
  }
  listCorrections(agentId: string, page: { limit?: number; cursor?: string } = {}): Promise<{ corrections: CorrectionDto[]; next_cursor: string | null }> {
    return this.json(ROUTES.listCorrections, { params: { id: agentId }, query: { limit: page.limit?.toString(), cursor: page.cursor }, keyed: true });
  }
  undoCorrection(agentId: string, correctionId: string, o?: WriteOptions): Promise<{ success: true }> {
    return this.json(ROUTES.undoCorrection, { params: { id: agentId, correctionId }, write: o, keyed: true });
  }
  listGlossary(agentId: string, page: { limit?: number; cursor?: string } = {}): Promise<{ terms: GlossaryTermDto[]; next_cursor: string | null }> {
    return this.json(ROUTES.listGlossary, { params: { id: agentId }, query: { limit: page.limit?.toString(), cursor: page.cursor }, keyed: true });
  }
  addGlossaryTerm(agentId: string, term: GlossaryTermInput, o?: WriteOptions): Promise<GlossaryTermDto> {
    return this.json(ROUTES.addGlossaryTerm, { params: { id: agentId }, json: term, write: o, keyed: true });
  }
  updateGlossaryTerm(agentId: string, termId: string, term: GlossaryTermInput, o?: WriteOptions): Promise<GlossaryTermDto> {
    return this.json(ROUTES.updateGlossaryTerm, { params: { id: agentId, termId }, json: term, write: o, keyed: true });
  }
  deleteGlossaryTerm(agentId: string, termId: string, o?: WriteOptions): Promise<{ success: true }> {
    return this.json(ROUTES.deleteGlossaryTerm, { params: { id: agentId, termId }, write: o, keyed: true });
  }
  /** Imports a CSV, TSV or TBX glossary file given as text (existing terms are updated; all or nothing). */
  importGlossary(agentId: string, format: 'csv' | 'tsv' | 'tbx', text: string, o?: WriteOptions): Promise<{ added: number; updated: number; total: number }> {
    return this.json(ROUTES.importGlossary, { params: { id: agentId }, json: { format, glossary_file: text }, write: o, keyed: true });
  }

  // Translation
  /** One translation, answered as JSON once complete. */
  translate(req: TranslateRequest, o?: WriteOptions): Promise<TranslateAnswer> {
    return this.json(ROUTES.translate, { json: { ...req, stream: false }, write: o, keyed: true });
  }
  /**
   * One translation as it happens: the SSE events (status, translation_chunk, translation_complete).
   * An `error` event is thrown as GaiaServerError; a refusal before the stream as its typed error.
   * Breaking out of the loop cancels the translation.
   */
  async *streamTranslation(req: TranslateRequest, o?: WriteOptions): AsyncGenerator<TranslationEventDto> {
    for await (const e of this.events<TranslationEventDto>(ROUTES.translate, { ...req, stream: true }, o)) {
      if (e.type === 'error') throw new GaiaServerError(e.message || 'Translation failed', 502, e);
      yield e;
    }
  }

  /** Up to 100 texts, one result per text in order (a failed text does not fail the others). */
  translateBatch(req: TranslateBatchRequest, o?: WriteOptions): Promise<TranslateBatchJsonResponse> {
    return this.json(ROUTES.translateBatch, { json: { ...req, stream: false }, write: o, keyed: true });
  }
  /** A batch as it happens: every event tagged with the index of its text, then `batch_complete`. */
  streamBatch(req: TranslateBatchRequest, o?: WriteOptions): AsyncGenerator<TranslateBatchEvent> {
    return this.events<TranslateBatchEvent>(ROUTES.translateBatch, { ...req, stream: true }, o);
  }

  /**
   * Starts translating a TXT, CSV/TSV, TMX or XLIFF file (same format back, targets filled). Follow it with
   * translateFileStatus / waitForFileTranslation, then downloadTranslatedFile.
   */
  translateFile(req: TranslateFileRequest, o?: WriteOptions): Promise<TranslateFileStartResponse> {
    const form = new FormData();
    for (const k of ['model_id', 'src_lang', 'tgt_lang', 'column', 'format'] as const) if (req[k] !== undefined) form.append(k, req[k] as string);
    form.append('file', toBlob(req.file), fileName(req.file, 0));
    return this.json(ROUTES.translateFile, { form, write: o, keyed: true });
  }
  translateFileStatus(taskId: string): Promise<{ task: TranslateFileTaskDto }> {
    return this.json(ROUTES.translateFileStatus, { query: { task_id: taskId }, keyed: true });
  }
  /** Polls the task until it is COMPLETED (resolves) or FAILED (throws GaiaServerError with its message). */
  async waitForFileTranslation(
    taskId: string,
    o: { onProgress?: (task: TranslateFileTaskDto) => void; intervalMs?: number; signal?: AbortSignal } = {},
  ): Promise<TranslateFileTaskDto> {
    for (;;) {
      const { task } = await this.translateFileStatus(taskId);
      o.onProgress?.(task);
      if (task.status === 'COMPLETED') return task;
      if (task.status === 'FAILED') throw new GaiaServerError(task.message || 'File translation failed', 500, task);
      if (o.signal?.aborted) throw o.signal.reason;
      await new Promise((r) => setTimeout(r, o.intervalMs ?? DEFAULT_POLL_INTERVAL_MS));
    }
  }
  /** The translated file, once the task is COMPLETED. */
  async downloadTranslatedFile(taskId: string): Promise<Uint8Array> {
    const res = await this.send(ROUTES.downloadTranslatedFile, { query: { task_id: taskId }, keyed: true, accept: '*/*' });
    return new Uint8Array(await res.arrayBuffer());
  }

  // Plumbing
  private async *events<T>(route: Route, body: unknown, o?: WriteOptions): AsyncGenerator<T> {
    const res = await this.send(route, { json: body, write: o, keyed: true, accept: 'text/event-stream' });
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream') || !res.body) {
      // A JSON answer where a stream was asked for: yield nothing rather than guess.
      await res.body?.cancel();
      throw new GaiaApiError('Invalid response format from server', res.status);
    }
    yield* parseSse<T>(res.body);
  }

  private async json<T>(route: Route, o: CallOptions = {}): Promise<T> {
    const res = await this.send(route, o);
    if (res.status === 204) return undefined as T;
    return (await res.json()) as T;
  }

  private url(route: Route, o: CallOptions): string {
    const path = route.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(o.params?.[k] ?? ''));
    const q = Object.entries(o.query ?? {}).filter((e): e is [string, string] => e[1] !== undefined);
    return `${this.baseUrl}${path}${q.length ? `?${new URLSearchParams(q).toString()}` : ''}`;
  }

  private headers(route: Route, o: CallOptions, idempotencyKey: string | undefined): Headers {
    const h = new Headers({ Accept: o.accept ?? 'application/json' });
    if (o.json !== undefined) h.set('Content-Type', 'application/json');
    if (o.keyed && this.options.apiKey) h.set('X-API-Key', this.options.apiKey);
    if (this.cookies.size) h.set('Cookie', [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '));
    if (UNSAFE.has(route.method)) {
      const csrf = this.cookies.get(CSRF_COOKIE) ?? documentCookie(CSRF_COOKIE);
      if (csrf) h.set('X-CSRF-Token', csrf);
      if (idempotencyKey) h.set('Idempotency-Key', idempotencyKey);
    }
    return h;
  }

  /** One call with the opt-in retry; resolves with a 2xx response, otherwise throws the typed error. */
  private async send(route: Route, o: CallOptions = {}): Promise<Response> {
    const idempotencyKey = UNSAFE.has(route.method) ? (o.write?.idempotencyKey ?? (this.options.idempotencyKey ?? newKey)()) : undefined;
    const retry = this.options.retry;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchImpl(this.url(route, o), {
          method: route.method,
          headers: this.headers(route, o, idempotencyKey),
          body: o.form ?? (o.json !== undefined ? JSON.stringify(o.json) : undefined),
          credentials: 'include',
          signal: o.write?.signal,
        });
      } catch (e) {
        if ((e as Error).name === 'AbortError') throw e;
        throw new GaiaNetworkError(`Could not reach ${this.baseUrl}: ${(e as Error).message}`, e);
      }
      this.keepCookies(res);
      if (res.ok) return res;
      const error = await this.errorOf(res);
      const delayMs = retry && attempt < retry.retries && RETRYABLE_STATUSES.has(res.status) ? this.retryDelay(retry, attempt, res) : null;
      if (delayMs === null) throw error;
      retry?.onRetry?.({ attempt: attempt + 1, status: res.status, delayMs, route: `${route.method} ${route.path}` });
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }

  private retryDelay(retry: RetryOptions, attempt: number, res: Response): number | null {
    const after = parseRetryAfter(res.headers.get('retry-after'));
    const delayMs = after !== null ? after * 1000 : (retry.baseDelayMs ?? DEFAULT_BASE_RETRY_DELAY_MS) * 2 ** attempt;
    return delayMs > (retry.maxDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS) ? null : delayMs;
  }

  private async errorOf(res: Response): Promise<GaiaApiError> {
    const text = await res.text().catch(() => '');
    let body: unknown = text;
    let message = '';
    try {
      body = JSON.parse(text);
      const e = (body as { error?: unknown }).error;
      if (typeof e === 'string') message = e;
    } catch {
      /* not JSON */
    }
    return errorFor(res.status, message || res.statusText || 'Translation request failed', body, res.headers.get('retry-after'));
  }

  /** Outside a browser, the session cookies of signUp/signIn are kept here (a browser keeps them itself). */
  private keepCookies(res: Response): void {
    const raw = typeof res.headers.getSetCookie === 'function' ? res.headers.getSetCookie() : [];
    for (const c of raw) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      if (!SESSION_COOKIES.includes(name)) continue;
      const value = decodeURIComponent(pair.slice(i + 1).trim());
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

function newKey(): string {
  return globalThis.crypto.randomUUID();
}

function documentCookie(name: string): string | undefined {
  const doc = (globalThis as { document?: { cookie?: string } }).document;
  const hit = doc?.cookie
    ?.split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : undefined;
}
