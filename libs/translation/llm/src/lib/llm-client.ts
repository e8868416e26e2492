import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { systemClock, type Clock } from '@gaia/shared/kernel';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { LlmConfig } from './llm.config';
import { LlmFailureReason, LlmUnavailableError } from './llm.errors';
import { TokenUsage, ZERO_USAGE, addUsage, estimateTokens, fromApiUsage } from './token-usage';

export type ChatMessage = ChatCompletionMessageParam;
export type ChatContentPart = ChatCompletionContentPart;

export interface ChatParams {
  messages: ChatMessage[];
  model?: string;
  n?: number;
  temperature?: number;
  maxTokens?: number;
  jsonMode?: boolean;
}

export interface CompletionResult {
  choices: string[];
  usage: TokenUsage;
  /** Attempts made (1 = no retry). */
  attempts: number;
}

export type StreamPiece = { type: 'delta'; content: string } | { type: 'done'; usage: TokenUsage; attempts: number; estimated: boolean };

export interface LlmClientDeps {
  /** Waits between retries (injectable so tests can assert the delays without waiting). */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0,1) for the exponential backoff. */
  random?: () => number;
  fetch?: typeof fetch;
  /** The time a `Retry-After` date is counted from (the CLOCK port; the system clock by default). */
  clock?: Clock;
}

export const LLM_CLIENT = Symbol('LLM_CLIENT');

const BACKOFF_BASE_MS = 500;

/**
 * Thin layer over the `openai` package: one deadline per call covering the stream body
 * (`OPENAI_TIMEOUT_MS`), bounded retries (`OPENAI_MAX_RETRIES`) on 429/5xx/connection errors/timeouts
 * with exponential backoff and jitter, `Retry-After`/`retry-after-ms` honoured (a wait longer than
 * `maxRetryDelayMs` gives up at once), and token usage of every call. The SDK's own retries are off
 * (its Retry-After handling has no upper bound). Every failure ends as `LlmUnavailableError`.
 */
export class LlmClient {
  private readonly openai: OpenAI;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly clock: Clock;

  constructor(
    readonly config: LlmConfig,
    deps: LlmClientDeps = {},
  ) {
    this.openai = new OpenAI({
      apiKey: config.apiKey,
      baseURL: config.baseURL,
      timeout: config.timeoutMs,
      maxRetries: 0,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = deps.random ?? Math.random;
    this.clock = deps.clock ?? systemClock;
  }

  /** Non-streamed chat completion: the text of every choice and the usage. */
  async complete(params: ChatParams): Promise<CompletionResult> {
    let usage = ZERO_USAGE;
    for (let attempt = 1; ; attempt++) {
      const deadline = this.deadline();
      try {
        const response = await this.openai.chat.completions.create(
          {
            model: params.model ?? this.config.chatModel,
            messages: params.messages,
            ...(params.n && params.n > 1 ? { n: params.n } : {}),
            ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
            ...(params.maxTokens ? { max_tokens: params.maxTokens } : {}),
            ...(params.jsonMode ? { response_format: { type: 'json_object' as const } } : {}),
            stream: false,
          },
          { signal: deadline.signal, maxRetries: 0 },
        );
        usage = addUsage(usage, fromApiUsage(response.usage) ?? estimateUsage(params.messages, ''));
        const choices = (response.choices ?? [])
          .slice()
          .sort((a, b) => a.index - b.index)
          .map((c) => (typeof c.message?.content === 'string' ? c.message.content : ''));
        return { choices, usage, attempts: attempt };
      } catch (err) {
        await this.retryOrThrow(err, attempt, deadline.timedOut(), usage);
      } finally {
        deadline.clear();
      }
    }
  }

  /**
   * Streamed chat completion (`stream: true`, `stream_options.include_usage`): yields content deltas as
   * they arrive, then one `done` piece with the usage. A failure before the first delta is retried; a
   * stream that breaks after content was yielded (socket cut, deadline, no finish_reason) throws
   * `LlmUnavailableError('stream_interrupted')` carrying the estimated usage.
   */
  async *stream(params: ChatParams): AsyncGenerator<StreamPiece> {
    let usage = ZERO_USAGE;
    for (let attempt = 1; ; attempt++) {
      const deadline = this.deadline();
      let emitted = '';
      let finished = false;
      let apiUsage: TokenUsage | null = null;
      try {
        const stream = await this.openai.chat.completions.create(
          {
            model: params.model ?? this.config.chatModel,
            messages: params.messages,
            ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
            ...(params.maxTokens ? { max_tokens: params.maxTokens } : {}),
            stream: true,
            stream_options: { include_usage: true },
          },
          { signal: deadline.signal, maxRetries: 0 },
        );
        for await (const chunk of stream) {
          const u = fromApiUsage(chunk.usage);
          if (u) apiUsage = u;
          for (const choice of chunk.choices ?? []) {
            if (choice.index !== 0) continue;
            const content = choice.delta?.content;
            if (typeof content === 'string' && content.length > 0) {
              emitted += content;
              yield { type: 'delta', content };
            }
            if (choice.finish_reason) finished = true;
          }
        }
        // The SDK ends silently when the body ends early or our deadline aborts it: no finish_reason = cut off.
        if (!finished) {
          throw new LlmUnavailableError(
            deadline.timedOut() ? 'timeout' : 'stream_interrupted',
            deadline.timedOut() ? `LLM stream exceeded ${this.config.timeoutMs} ms` : 'LLM stream ended before completion',
          );
        }
        const estimated = apiUsage === null;
        usage = addUsage(usage, apiUsage ?? estimateUsage(params.messages, emitted));
        yield { type: 'done', usage, attempts: attempt, estimated };
        return;
      } catch (err) {
        if (emitted.length > 0) {
          // Content already went out: no retry, the caller falls back. Bill what was spent.
          usage = addUsage(usage, apiUsage ?? estimateUsage(params.messages, emitted));
          const cause = err instanceof LlmUnavailableError ? err : this.classify(err, deadline.timedOut());
          throw new LlmUnavailableError(
            cause.reason === 'timeout' ? 'timeout' : 'stream_interrupted',
            `LLM stream interrupted: ${cause.message}`,
            usage,
            attempt,
          );
        }
        await this.retryOrThrow(err, attempt, deadline.timedOut(), usage);
      } finally {
        deadline.clear();
      }
    }
  }

  /** Embeddings with `OPENAI_EMBEDDINGS_MODEL`. */
  async embed(texts: string[]): Promise<{ vectors: number[][]; usage: TokenUsage }> {
    const model = this.config.embeddingsModel;
    if (!model) throw new LlmUnavailableError('not_configured', 'OPENAI_EMBEDDINGS_MODEL is not set');
    for (let attempt = 1; ; attempt++) {
      const deadline = this.deadline();
      try {
        const res = await this.openai.embeddings.create({ model, input: texts }, { signal: deadline.signal, maxRetries: 0 });
        const vectors = res.data
          .slice()
          .sort((a, b) => a.index - b.index)
          .map((d) => d.embedding as number[]);
        return { vectors, usage: { input_tokens: res.usage?.prompt_tokens ?? 0, output_tokens: 0 } };
      } catch (err) {
        await this.retryOrThrow(err, attempt, deadline.timedOut(), ZERO_USAGE);
      } finally {
        deadline.clear();
      }
    }
  }

  /** Decides after a failed attempt: waits and returns (retry) or throws `LlmUnavailableError`. */
  private async retryOrThrow(err: unknown, attempt: number, timedOut: boolean, usage: TokenUsage): Promise<void> {
    const failure = err instanceof LlmUnavailableError ? err : this.classify(err, timedOut);
    const retryable = ['timeout', 'rate_limited', 'server_error', 'connection', 'stream_interrupted'].includes(failure.reason);
    const retriesLeft = this.config.maxRetries - (attempt - 1);
    if (!retryable || retriesLeft <= 0) {
      throw new LlmUnavailableError(
        failure.reason,
        retryable ? `${failure.message} (after ${attempt} attempt${attempt > 1 ? 's' : ''})` : failure.message,
        usage,
        attempt,
        failure.status,
      );
    }
    const hinted = retryAfterMs(err, this.clock.now());
    const delay = hinted ?? Math.round(BACKOFF_BASE_MS * 2 ** (attempt - 1) * (1 - 0.25 * this.random()));
    if (delay > this.config.maxRetryDelayMs) {
      throw new LlmUnavailableError(
        failure.reason,
        `${failure.message} (server asks to wait ${delay} ms, more than ${this.config.maxRetryDelayMs} ms)`,
        usage,
        attempt,
        failure.status,
      );
    }
    await this.sleep(delay);
  }

  private classify(err: unknown, timedOut: boolean): LlmUnavailableError {
    if (timedOut || (err instanceof APIUserAbortError && timedOut)) {
      return new LlmUnavailableError('timeout', `LLM call exceeded ${this.config.timeoutMs} ms`);
    }
    if (err instanceof APIConnectionError) {
      const timeout = err.constructor.name === 'APIConnectionTimeoutError';
      return new LlmUnavailableError(timeout ? 'timeout' : 'connection', `LLM endpoint unreachable: ${err.message}`);
    }
    if (err instanceof APIError) {
      const status = err.status ?? 0;
      const reason: LlmFailureReason = status === 429 ? 'rate_limited' : status >= 500 || status === 408 || status === 409 ? 'server_error' : 'client_error';
      return new LlmUnavailableError(reason, `LLM endpoint answered ${status || 'an error'}: ${err.message}`, ZERO_USAGE, 0, status || undefined);
    }
    const message = err instanceof Error ? err.message : String(err);
    // Body read failures (socket closed mid-stream) surface as plain errors ("terminated").
    return new LlmUnavailableError('connection', `LLM call failed: ${message}`);
  }

  private deadline() {
    const controller = new AbortController();
    let fired = false;
    const timer = setTimeout(() => {
      fired = true;
      controller.abort();
    }, this.config.timeoutMs);
    return { signal: controller.signal, timedOut: () => fired, clear: () => clearTimeout(timer) };
  }
}

/** `retry-after-ms` (ms) or `Retry-After` (seconds, or an HTTP date counted from `now`) of an API error, if any. */
export function retryAfterMs(err: unknown, now: Date): number | undefined {
  if (!(err instanceof APIError) || !err.headers) return undefined;
  const headers = err.headers as Headers;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.round(Number(ms));
  const ra = headers.get('retry-after');
  if (!ra) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.round(Number(ra) * 1000);
  const at = Date.parse(ra);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

function estimateUsage(messages: ChatMessage[], output: string): TokenUsage {
  const text = messages
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : Array.isArray(m.content)
          ? m.content.map((p) => (p && typeof p === 'object' && 'text' in p ? String(p.text) : '')).join(' ')
          : '',
    )
    .join('\n');
  return { input_tokens: estimateTokens(text), output_tokens: estimateTokens(output) };
}
