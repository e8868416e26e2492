import { TokenUsage, ZERO_USAGE } from './token-usage';

export type LlmFailureReason =
  'not_configured' | 'timeout' | 'rate_limited' | 'server_error' | 'connection' | 'client_error' | 'stream_interrupted' | 'bad_response';

/**
 * The LLM endpoint could not produce an answer (after bounded retries). This is the fallback signal:
 * the service catches it and continues with the built-in engine. `usage` holds the tokens already
 * spent on calls that did answer (billed even when the request falls back).
 */
export class LlmUnavailableError extends Error {
  override readonly name = 'LlmUnavailableError';
  constructor(
    readonly reason: LlmFailureReason,
    message: string,
    readonly usage: TokenUsage = ZERO_USAGE,
    readonly attempts = 0,
    readonly status?: number,
  ) {
    super(message);
  }

  withUsage(usage: TokenUsage): LlmUnavailableError {
    return new LlmUnavailableError(this.reason, this.message, usage, this.attempts, this.status);
  }
}

export function isLlmUnavailable(err: unknown): err is LlmUnavailableError {
  return err instanceof LlmUnavailableError;
}
