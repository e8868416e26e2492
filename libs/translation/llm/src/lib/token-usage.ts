/** Tokens of one request, as billed: `input_tokens` (prompt) and `output_tokens` (completion). */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
}

export const ZERO_USAGE: TokenUsage = Object.freeze({ input_tokens: 0, output_tokens: 0 });

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { input_tokens: a.input_tokens + b.input_tokens, output_tokens: a.output_tokens + b.output_tokens };
}

/** Maps the OpenAI usage fields (`prompt_tokens`/`completion_tokens`, or the Responses-style names). */
export function fromApiUsage(usage: unknown): TokenUsage | null {
  if (!usage || typeof usage !== 'object') return null;
  const u = usage as Record<string, unknown>;
  const input = num(u['prompt_tokens']) ?? num(u['input_tokens']);
  const output = num(u['completion_tokens']) ?? num(u['output_tokens']);
  if (input === undefined && output === undefined) return null;
  return { input_tokens: input ?? 0, output_tokens: output ?? 0 };
}

/** Estimate used only when the server sent no usage (e.g. a cut-off stream): ~4 characters per token. */
export function estimateTokens(text: string): number {
  return text ? Math.ceil(text.length / 4) : 0;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}
