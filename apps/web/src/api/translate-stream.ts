import type {
  AppliedTerm,
  EngineKind,
  TranslateHttpBody,
  TranslateJsonResponse,
  TranslationEventDto,
  TranslationExplanation,
  UntranslatedSpan,
} from '@gaia/contracts';
import { buildHeaders, errorFrom } from './http';

/**
 * The one client of POST /api/translate/ (spec §7) for every translator of the app: the public pages send the
 * public API key, the dashboard's test translator the session (cookie + CSRF echo, which a signed-in visitor of
 * the public pages sends too).
 */
export const TRANSLATE_PATH = '/api/translate/';
export const TRANSLATION_REQUEST_FAILED = 'Translation request failed';
export const TRANSLATION_FAILED = 'Translation failed';
export const INVALID_RESPONSE_FORMAT = 'Invalid response format from server';
const API_KEY_HEADER = 'X-API-Key';

type CompleteEvent = Extract<TranslationEventDto, { type: 'translation_complete' }>;

/** response_time as a number of seconds (servers may send it as a numeric string); null when absent. */
export function toSeconds(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

export interface TranslateResult {
  translation: string;
  responseTime: number | null;
  /** 0..1 from the engine; null when the server did not say. */
  confidence: number | null;
  /** Source spans the engine left untranslated (offsets into the source text). */
  untranslated: UntranslatedSpan[];
  /** Why the answer came out so (asked with `explain: true`); null when not asked. */
  explanation: TranslationExplanation | null;
  /** Glossary terms of the agent the answer applied (empty when none or the server did not say). */
  appliedTerms: AppliedTerm[];
  /** Engine that produced the answer (streamed answers only; null when the server did not say). */
  engine: EngineKind | null;
}

const confidenceOf = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The result carried by a `translation_complete` event (`accumulated`: the chunks, if the event has no text). */
export function completeResult(event: CompleteEvent, accumulated = ''): TranslateResult {
  return {
    translation: event.final_translation ?? accumulated,
    responseTime: toSeconds(event.response_time),
    confidence: confidenceOf(event.confidence),
    untranslated: event.untranslated ?? [],
    explanation: event.explanation ?? null,
    appliedTerms: event.applied_terms ?? [],
    engine: event.engine ?? null,
  };
}

/** The result of a successful non-streamed answer. */
export function jsonResult(body: TranslateJsonResponse): TranslateResult {
  return {
    translation: body.data.translation,
    responseTime: toSeconds(body.response_time),
    confidence: confidenceOf(body.confidence),
    untranslated: body.untranslated ?? [],
    explanation: body.explanation ?? null,
    appliedTerms: body.applied_terms ?? [],
    engine: null,
  };
}

export interface TranslateOptions {
  /** Sent as X-API-Key (the public pages' key); without it the session pays. */
  apiKey?: string;
  signal?: AbortSignal;
  onEvent?: (event: TranslationEventDto) => void;
  logger?: Pick<Console, 'warn'>;
  /** Origin of the API; same origin when empty. */
  baseUrl?: string;
}

/**
 * Splits a text/event-stream body into `data: ` payloads and parses each as JSON.
 * A line that does not parse is warned about and skipped; the stream goes on.
 */
export class SseLineParser {
  private buffer = '';
  constructor(
    private readonly onEvent: (event: TranslationEventDto) => void,
    private readonly logger: Pick<Console, 'warn'> = console,
  ) {}

  push(chunk: string): void {
    this.buffer += chunk;
    const lines = this.buffer.split(/\r?\n/);
    this.buffer = lines.pop() ?? '';
    for (const line of lines) this.handle(line);
  }

  end(): void {
    if (this.buffer) this.handle(this.buffer);
    this.buffer = '';
  }

  private handle(line: string): void {
    if (!line.startsWith('data:')) return;
    const payload = line.slice(5).trimStart();
    if (!payload || payload === '[DONE]') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch (err) {
      this.logger.warn('Failed to parse stream chunk:', payload, err);
      return;
    }
    if (parsed && typeof parsed === 'object' && typeof (parsed as { type?: unknown }).type === 'string') {
      this.onEvent(parsed as TranslationEventDto);
    } else {
      this.logger.warn('Ignoring stream chunk without a type:', payload);
    }
  }
}

async function readJsonAnswer(res: Response): Promise<TranslateResult> {
  let body: Partial<TranslateJsonResponse> | null;
  try {
    body = (await res.json()) as Partial<TranslateJsonResponse> | null;
  } catch {
    throw new Error(INVALID_RESPONSE_FORMAT);
  }
  if (!body || typeof body !== 'object') throw new Error(INVALID_RESPONSE_FORMAT);
  if (body.success !== true || !body.data) throw new Error(TRANSLATION_FAILED);
  return jsonResult(body as TranslateJsonResponse);
}

async function readStream(body: ReadableStream<Uint8Array>, opts: TranslateOptions): Promise<TranslateResult> {
  let accumulated = '';
  let final: TranslateResult | null = null;
  let failure: string | null = null;
  const parser = new SseLineParser((event) => {
    if (event.type === 'translation_chunk') accumulated += event.content ?? '';
    if (event.type === 'translation_complete') final = completeResult(event, accumulated);
    if (event.type === 'error') failure = event.message || TRANSLATION_REQUEST_FAILED;
    opts.onEvent?.(event);
  }, opts.logger);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.push(decoder.decode(value, { stream: true }));
  }
  parser.push(decoder.decode());
  parser.end();
  if (failure) throw new Error(failure);
  return final ?? { translation: accumulated, responseTime: null, confidence: null, untranslated: [], explanation: null, appliedTerms: [], engine: null };
}

/**
 * POST /api/translate/ with stream=true. Streams events to `onEvent`; resolves with the final translation.
 * Falls back to the JSON answer when the server does not stream. Rejects with an ApiError (status and stable
 * code) on a refusal, or an Error whose message is the stream's error text (or the spec's fallbacks).
 */
export async function translate(req: TranslateHttpBody, opts: TranslateOptions = {}): Promise<TranslateResult> {
  const headers = buildHeaders('POST', { headers: opts.apiKey ? { [API_KEY_HEADER]: opts.apiKey } : {} }, true);
  headers.set('Accept', 'text/event-stream, application/json');
  const res = await fetch(`${opts.baseUrl ?? ''}${TRANSLATE_PATH}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers,
    body: JSON.stringify({ ...req, stream: true }),
    signal: opts.signal,
  });
  if (!res.ok) throw await errorFrom(res, TRANSLATION_REQUEST_FAILED);
  const contentType = res.headers.get('content-type') ?? '';
  return contentType.includes('stream') && res.body ? readStream(res.body, opts) : readJsonAnswer(res);
}
