import { describeLlmConfig, loadLlmConfig } from './llm.config';

describe('loadLlmConfig', () => {
  it('is null without a key (LLM engine not configured)', () => {
    expect(loadLlmConfig({})).toBeNull();
    expect(loadLlmConfig({ OPENAI_API_KEY: '   ', OPENAI_BASE_URL: 'http://x/v1' })).toBeNull();
  });

  it('reads every variable, defaults the vision model to the chat model, and hides the key', () => {
    const c = loadLlmConfig({
      OPENAI_API_KEY: 'sk-secret',
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
      OPENAI_CHAT_MODEL: 'llama3.1',
      OPENAI_TIMEOUT_MS: 5000,
      OPENAI_MAX_RETRIES: '4',
    })!;
    expect(c.apiKey).toBe('sk-secret');
    expect(c).toMatchObject({ baseURL: 'http://localhost:11434/v1', chatModel: 'llama3.1', visionModel: 'llama3.1', timeoutMs: 5000, maxRetries: 4 });
    expect(JSON.stringify(c)).not.toContain('sk-secret');
    expect(JSON.stringify(describeLlmConfig(c))).not.toContain('sk-secret');
    expect(loadLlmConfig({ OPENAI_API_KEY: 'k', OPENAI_VISION_MODEL: 'gpt-4o' })!.visionModel).toBe('gpt-4o');
  });

  it('rejects bad numbers and modes by name', () => {
    expect(() => loadLlmConfig({ OPENAI_API_KEY: 'k', OPENAI_MAX_RETRIES: 'lots' })).toThrow('OPENAI_MAX_RETRIES');
    expect(() => loadLlmConfig({ OPENAI_API_KEY: 'k', OPENAI_CANDIDATE_MODE: 'beam' })).toThrow('OPENAI_CANDIDATE_MODE');
  });
});
