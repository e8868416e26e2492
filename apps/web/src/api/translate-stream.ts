import { CSRF_COOKIE, CSRF_HEADER, errorFrom, readCookie } from './http';
import type { TranslateJsonResponse, TranslateRequest, TranslationEvent, UntranslatedSpan } from './types';

export const TRANSLATE_PATH = '/api/translate/';
export const TRANSLATION_REQUEST_FAILED = 'Translation request failed';
export const TRANSLATION_FAILED = 'Translation failed';

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
}

const confidenceOf = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The result carried by a `translation_complete` event (`accumulated`: the chunks, if the event has no text). */
export function completeResult(event: Extract<TranslationEvent, { type: 'translation_complete' }>, accumulated = ''): TranslateResult {
  return { translation: event.final_translation ?? accumulated, responseTime: toSeconds(event.response_time), confidence: confidenceOf(event.confidence), untranslated: event.untranslated ?? [] };
}

/** The result of a successful non-streamed answer. */
export function jsonResult(body: TranslateJsonResponse & { data: { translation: string } }): TranslateResult {
  return { translation: body.data.translation, responseTime: toSeconds(body.response_time), confidence: confidenceOf(body.confidence), untranslated: body.untranslated ?? [] };
}

export interface TranslateOptions {
  apiKey?: string;
  signal?: AbortSignal;
  onEvent?: (event: TranslationEvent) => void;
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
    private readonly onEvent: (event: TranslationEvent) => void,
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
      this.onEvent(parsed as TranslationEvent);
    } else {
      this.logger.warn('Ignoring stream chunk without a type:', payload);
    }
  }
}

/**
 * POST /api/translate/ with stream=true. Streams events to `onEvent`; resolves with the final translation.
 * Falls back to the JSON answer when the server does not stream. Rejects with an Error whose message is the
 * server's error text (or the spec's fallbacks).
 */
export async function translate(req: TranslateRequest, opts: TranslateOptions = {}): Promise<TranslateResult> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream, application/json' };
  if (opts.apiKey) headers['X-API-Key'] = opts.apiKey;
  // A signed-in visitor also sends the session cookie: echo the CSRF token as for any unsafe request.
  const csrf = readCookie(CSRF_COOKIE);
  if (csrf) headers[CSRF_HEADER] = csrf;
  const res = await fetch(`${opts.baseUrl ?? ''}${TRANSLATE_PATH}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers,
    body: JSON.stringify({ ...req, stream: true }),
    signal: opts.signal,
  });
  if (!res.ok) throw await errorFrom(res, TRANSLATION_REQUEST_FAILED);

  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.includes('stream') || !res.body) {
    const body = (await res.json()) as TranslateJsonResponse;
    if (!body.success || !body.data) throw new Error(body.error || TRANSLATION_FAILED);
    const result = jsonResult({ ...body, data: body.data });
    opts.onEvent?.({ type: 'translation_complete', final_translation: result.translation, response_time: result.responseTime ?? 0, source_text: body.source_text, confidence: body.confidence, untranslated: result.untranslated });
    return result;
  }

  let accumulated = '';
  let final: TranslateResult | null = null;
  let failure: string | null = null;
  const parser = new SseLineParser((event) => {
    if (event.type === 'translation_chunk') accumulated += event.content ?? '';
    if (event.type === 'translation_complete') final = completeResult(event, accumulated);
    if (event.type === 'error') failure = event.message || TRANSLATION_REQUEST_FAILED;
    opts.onEvent?.(event);
  }, opts.logger);

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
