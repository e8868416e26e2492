/**
 * LLM engine configuration, read from the app's validated config (`APP_CONFIG`, catalog in `@gaia/shared/config`):
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | OPENAI_API_KEY (secret) | bearer key; any non-blank value for self-hosted servers | — (LLM engine off) |
 * | OPENAI_BASE_URL | OpenAI-compatible endpoint (vLLM, Ollama `http://host:11434/v1`, llama.cpp) | https://api.openai.com/v1 |
 * | OPENAI_CHAT_MODEL | chat model of both translation phases | gpt-4o-mini |
 * | OPENAI_EMBEDDINGS_MODEL | embeddings model (optional) | — |
 * | OPENAI_VISION_MODEL | vision model for page extraction (optional) | the chat model |
 * | OPENAI_TIMEOUT_MS | deadline of one call, stream body included | 30000 |
 * | OPENAI_MAX_RETRIES | retries after the first attempt on 429/5xx/connection errors | 2 |
 * | OPENAI_MAX_RETRY_DELAY_MS | longest wait before a retry; longer gives up at once (fallback) | 10000 |
 * | OPENAI_CANDIDATES | K, phase-1 candidates | 3 |
 * | OPENAI_CANDIDATE_MODE | `n` (one call, `n: K`) or `sample` (K calls at rising temperatures, for servers ignoring `n`) | n |
 *
 * Without a key the LLM engine is "not configured": agents set to `llm` use the built-in engine.
 */
export type CandidateMode = 'n' | 'sample';

export interface LlmConfig {
  apiKey: string;
  baseURL?: string;
  chatModel: string;
  embeddingsModel?: string;
  visionModel: string;
  timeoutMs: number;
  maxRetries: number;
  /** Retry-After values or backoffs beyond this give up at once (fallback) instead of waiting. */
  maxRetryDelayMs: number;
  candidates: number;
  candidateMode: CandidateMode;
}

export const LLM_CONFIG = Symbol('LLM_CONFIG');

type Env = Record<string, unknown>;

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  if (v === undefined || v === null) return undefined;
  const s = String(v).trim();
  return s ? s : undefined;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return n;
}

/**
 * Reads the configuration from the validated app config of `@gaia/shared/config` (or, in tests, a map with
 * the same variable names); `null` when no API key is set (LLM engine unavailable).
 */
export function loadLlmConfig(env: Env): LlmConfig | null {
  const apiKey = str(env, 'OPENAI_API_KEY');
  if (!apiKey) return null;
  const baseURL = str(env, 'OPENAI_BASE_URL');
  if (baseURL && !/^https?:\/\//.test(baseURL)) throw new Error(`OPENAI_BASE_URL must be an http(s) URL (got "${baseURL}")`);
  const chatModel = str(env, 'OPENAI_CHAT_MODEL') ?? 'gpt-4o-mini';
  const mode = (str(env, 'OPENAI_CANDIDATE_MODE') ?? 'n') as CandidateMode;
  if (mode !== 'n' && mode !== 'sample') throw new Error(`OPENAI_CANDIDATE_MODE must be "n" or "sample" (got "${mode}")`);
  const config: LlmConfig = {
    apiKey,
    baseURL,
    chatModel,
    embeddingsModel: str(env, 'OPENAI_EMBEDDINGS_MODEL'),
    visionModel: str(env, 'OPENAI_VISION_MODEL') ?? chatModel,
    timeoutMs: int(env, 'OPENAI_TIMEOUT_MS', 30_000, 100, 600_000),
    maxRetries: int(env, 'OPENAI_MAX_RETRIES', 2, 0, 10),
    maxRetryDelayMs: int(env, 'OPENAI_MAX_RETRY_DELAY_MS', 10_000, 0, 120_000),
    candidates: int(env, 'OPENAI_CANDIDATES', 3, 1, 8),
    candidateMode: mode,
  };
  // Keep the key out of logs and JSON dumps.
  Object.defineProperty(config, 'apiKey', { value: apiKey, enumerable: false });
  return config;
}

/** The configuration without the secret, for logs and health pages. */
export function describeLlmConfig(config: LlmConfig | null): Record<string, unknown> {
  if (!config) return { configured: false };
  const { apiKey: _k, ...rest } = config;
  return { configured: true, ...rest, baseURL: config.baseURL ?? 'https://api.openai.com/v1' };
}
