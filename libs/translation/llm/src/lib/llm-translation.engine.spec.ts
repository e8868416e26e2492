import { ManualClock } from '@gaia/shared/kernel';
import { OpenAiDouble } from '@gaia/testing';
import { FallbackTranslationEngine } from './fallback-translation.engine';
import { LlmClient } from './llm-client';
import type { LlmConfig } from './llm.config';
import { LlmUnavailableError } from './llm.errors';
import { LlmTranslationEngine } from './llm-translation.engine';
import { collect, fixtureAgent, llmEngineOn } from './test-agent.fixture';
import { EngineEvent, TranslationEnginePort } from './translation-engine.port';

const builtinPort = (): TranslationEnginePort => ({
  kind: 'builtin',
  async *translate(req) {
    for await (const e of req.agent.knowledge.translate(req.text, req.direction, 3)) {
      if (e.type === 'translation_complete') yield { ...e, usage: { input_tokens: 2, output_tokens: 3 }, engine: 'builtin' };
      else yield e;
    }
  },
});

describe('LlmTranslationEngine against the OpenAI wire-protocol double', () => {
  let double: OpenAiDouble;
  let config: LlmConfig;
  let delays: number[];
  let engine: LlmTranslationEngine;

  beforeAll(async () => {
    double = await OpenAiDouble.start();
  });
  afterAll(() => double.close());
  beforeEach(() => {
    double.reset();
    delays = [];
    ({ engine, config } = llmEngineOn(double.baseUrl, 3, (ms) => delays.push(ms)));
  });

  it('sends the exact phase-1 and phase-2 requests, marks each phase in a status event, streams chunks and sums usage', async () => {
    double.enqueue(
      { kind: 'json', choices: ['mi casa', 'Traducción: "mi hogar"', 'mi casa'], usage: { prompt_tokens: 120, completion_tokens: 9 } },
      { kind: 'stream', tokens: ['mi', ' casa', ' grande'], usage: { prompt_tokens: 200, completion_tokens: 3 } },
    );
    const events = await collect(engine.translate({ text: 'che róga guasu', direction: 'forward', agent: fixtureAgent() }));

    const [p1, p2] = double.chatRequests;
    expect(double.chatRequests).toHaveLength(2);
    expect(p1.headers['authorization']).toBe('Bearer sk-test');
    expect(p1.body).toMatchObject({ model: 'test-chat', n: 3, temperature: 0.8, stream: false });
    const p1System = p1.body.messages[0].content as string;
    const p1User = p1.body.messages[1].content as string;
    expect(p1System).toContain('Guaraní is agglutinative; possessive che- means "my".');
    expect(p1System).toContain('Use formal register.');
    expect(p1System).toContain('Agent description: Guaraní to Spanish agent');
    expect(p1User).toContain('1. guarani: mba’éichapa reiko\n   spanish: ¿cómo estás?');
    expect(p1User).toContain('2. guarani: che róga\n   spanish: mi casa');
    expect(p1User).toContain('- róga → casa; hogar');
    expect(p1User).toContain('Translate from guarani to spanish:\n<source>\nche róga guasu\n</source>');

    expect(p2.body).toMatchObject({ model: 'test-chat', stream: true, stream_options: { include_usage: true }, temperature: 0.2 });
    expect(p2.body.n).toBeUndefined();
    const p2User = p2.body.messages[1].content as string;
    expect(p2User).toContain('1. guarani: mba’éichapa reiko');
    expect(p2User).toContain(
      'Candidate translations (spanish):\n1. [sampled] mi casa\n2. [sampled] mi hogar\n3. [built-in engine draft] mi casa grande\n4. [built-in engine draft] casa grande mía',
    );

    expect(events.map((e) => e.type)).toEqual([
      'status',
      'status',
      'status',
      'translation_chunk',
      'translation_chunk',
      'translation_chunk',
      'translation_complete',
    ]);
    expect(events.flatMap((e) => (e.type === 'status' ? [e.phase] : []))).toEqual(['retrieve', 'candidates', 'refine']);
    expect(events.filter((e) => e.type === 'translation_chunk').map((e: any) => e.content)).toEqual(['mi', ' casa', ' grande']);
    const done = events.at(-1) as Extract<EngineEvent, { type: 'translation_complete' }>;
    expect(done.final_translation).toBe('mi casa grande');
    expect(done.source_text).toBe('che róga guasu');
    expect(done.engine).toBe('llm');
    expect(done.usage).toEqual({ input_tokens: 320, output_tokens: 12 });
    expect(done.response_time).toBeGreaterThanOrEqual(0);
    expect(done.provenance).toMatchObject({
      engine: 'llm',
      examples: [expect.objectContaining({ id: 'p1', source: expect.any(String), target: expect.any(String) }), expect.objectContaining({ id: 'p2' })],
      lexicon: ['róga'],
    });
  });

  it('reverse direction swaps the languages in the prompt', async () => {
    const agent = fixtureAgent();
    await collect(engine.translate({ text: 'mi casa', direction: 'reverse', agent }));
    expect(agent.calls.retrieve).toEqual(['reverse']);
    expect(double.chatRequests[0].body.messages[1].content).toContain('Translate from spanish to guarani:');
  });

  it('sample mode asks K single completions at different temperatures', async () => {
    const cfg = { ...config, candidateMode: 'sample' as const };
    Object.defineProperty(cfg, 'apiKey', { value: 'sk-test' });
    const sampling = new LlmTranslationEngine(new LlmClient(cfg));
    await collect(sampling.translate({ text: 'che róga', direction: 'forward', agent: fixtureAgent() }));
    const phase1 = double.chatRequests.filter((r) => !r.body.stream);
    expect(phase1).toHaveLength(3);
    expect(phase1.every((r) => r.body.n === undefined)).toBe(true);
    expect(new Set(phase1.map((r) => r.body.temperature)).size).toBe(3);
  });

  it('retries a 429 honouring Retry-After, then a 500 with backoff, and succeeds', async () => {
    double.enqueue({ kind: 'error', status: 429, retryAfter: '2' }, { kind: 'error', status: 500 });
    const events = await collect(engine.translate({ text: 'che róga', direction: 'forward', agent: fixtureAgent() }));
    expect(delays).toEqual([2000, 1000]); // Retry-After: 2 s; then backoff 500·2^1 (jitter 0)
    expect(double.chatRequests).toHaveLength(4);
    expect(events.at(-1)).toMatchObject({ type: 'translation_complete', final_translation: 'final translation' });
  });

  it('waits until the Retry-After date as counted on the clock it was given', async () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    const timed = new LlmTranslationEngine(new LlmClient(config, { sleep: async (ms) => void delays.push(ms), random: () => 0, clock }));
    double.enqueue({ kind: 'error', status: 429, retryAfter: 'Thu, 01 Jan 2026 00:00:03 GMT' });
    await collect(timed.translate({ text: 'che róga', direction: 'forward', agent: fixtureAgent() }));
    expect(delays).toEqual([3000]);
  });

  it('gives up after OPENAI_MAX_RETRIES and signals fallback', async () => {
    double.enqueue({ kind: 'error', status: 503 }, { kind: 'error', status: 502 }, { kind: 'error', status: 500 }, { kind: 'error', status: 500 });
    const err = await collect(engine.translate({ text: 'che róga', direction: 'forward', agent: fixtureAgent() })).catch((e) => e);
    expect(err).toBeInstanceOf(LlmUnavailableError);
    expect(err.reason).toBe('server_error');
    expect(err.attempts).toBe(3);
    expect(double.chatRequests).toHaveLength(3);
    expect(delays).toEqual([500, 1000]);
  });

  it('does not wait for a Retry-After beyond the limit', async () => {
    double.enqueue({ kind: 'error', status: 429, retryAfter: '3600' });
    const err = await collect(engine.translate({ text: 'x', direction: 'forward', agent: fixtureAgent() })).catch((e) => e);
    expect(err).toMatchObject({ reason: 'rate_limited' });
    expect(delays).toEqual([]);
    expect(double.chatRequests).toHaveLength(1);
  });

  it('does not retry a 400', async () => {
    double.enqueue({ kind: 'error', status: 400, message: 'bad model' });
    const err = await collect(engine.translate({ text: 'x', direction: 'forward', agent: fixtureAgent() })).catch((e) => e);
    expect(err).toMatchObject({ reason: 'client_error', status: 400 });
    expect(double.chatRequests).toHaveLength(1);
  });

  it('a stream cut off after content signals stream_interrupted with the phase-1 tokens and an estimate', async () => {
    double.enqueue(
      { kind: 'json', choices: ['a'], usage: { prompt_tokens: 50, completion_tokens: 5 } },
      { kind: 'stream', tokens: ['mi', ' casa', ' grande'], cutAfter: 2 },
    );
    const seen: EngineEvent[] = [];
    const err = await (async () => {
      for await (const e of engine.translate({ text: 'che róga', direction: 'forward', agent: fixtureAgent() })) seen.push(e);
    })().catch((e) => e);
    expect(seen.filter((e) => e.type === 'translation_chunk')).toHaveLength(2);
    expect(err).toBeInstanceOf(LlmUnavailableError);
    expect(err.reason).toBe('stream_interrupted');
    expect(double.chatRequests).toHaveLength(2); // content went out: no retry
    expect(err.usage.input_tokens).toBeGreaterThan(50);
    expect(err.usage.output_tokens).toBeGreaterThan(5);
  });

  it('a stream cut off before any content is retried', async () => {
    double.enqueue({ kind: 'json', choices: ['a'] }, { kind: 'stream', tokens: ['x'], cutAfter: 0 }, { kind: 'stream', tokens: ['mi', ' casa'] });
    const events = await collect(engine.translate({ text: 'che róga', direction: 'forward', agent: fixtureAgent() }));
    expect(double.chatRequests).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ final_translation: 'mi casa' });
  });

  it('a slow stream (pauses between tokens, within the deadline) is relayed token by token', async () => {
    double.enqueue({ kind: 'json', choices: ['a'] }, { kind: 'stream', tokens: ['mi', ' casa', ' grande', ' porã'], delayMs: 25 });
    const events = await collect(engine.translate({ text: 'x', direction: 'forward', agent: fixtureAgent() }));
    expect(events.filter((e) => e.type === 'translation_chunk').map((e: any) => e.content)).toEqual(['mi', ' casa', ' grande', ' porã']);
    expect(events.at(-1)).toMatchObject({ final_translation: 'mi casa grande porã', usage: { output_tokens: 3 + 4 } }); // 3 phase-1 choices 'a' + 4 streamed tokens
  });

  it('a stalled stream hits the deadline (OPENAI_TIMEOUT_MS) and signals timeout', async () => {
    const cfg = { ...config, timeoutMs: 300, maxRetries: 0 };
    Object.defineProperty(cfg, 'apiKey', { value: 'sk-test' });
    const fast = new LlmTranslationEngine(new LlmClient(cfg));
    double.enqueue({ kind: 'json', choices: ['a'] }, { kind: 'stream', tokens: ['mi', ' casa'], stallAfter: 1 });
    const err = await collect(fast.translate({ text: 'x', direction: 'forward', agent: fixtureAgent() })).catch((e) => e);
    expect(err).toMatchObject({ reason: 'timeout' });
  });

  it('a phase-1 call that never answers times out', async () => {
    const cfg = { ...config, timeoutMs: 300, maxRetries: 0 };
    Object.defineProperty(cfg, 'apiKey', { value: 'sk-test' });
    const fast = new LlmTranslationEngine(new LlmClient(cfg));
    double.enqueue({ kind: 'json', choices: [], hang: true });
    const err = await collect(fast.translate({ text: 'x', direction: 'forward', agent: fixtureAgent() })).catch((e) => e);
    expect(err).toMatchObject({ reason: 'timeout' });
  });

  it('an unreachable endpoint signals connection', async () => {
    const cfg = { ...config, baseURL: 'http://127.0.0.1:1/v1', maxRetries: 1 };
    Object.defineProperty(cfg, 'apiKey', { value: 'sk-test' });
    const down = new LlmTranslationEngine(new LlmClient(cfg, { sleep: async (ms) => void delays.push(ms), random: () => 0 }));
    const err = await collect(down.translate({ text: 'x', direction: 'forward', agent: fixtureAgent() })).catch((e) => e);
    expect(err).toMatchObject({ reason: 'connection', attempts: 2 });
    expect(delays).toEqual([500]);
  });

  describe('FallbackTranslationEngine', () => {
    it('passes LLM results through', async () => {
      const events = await collect(new FallbackTranslationEngine(engine, builtinPort()).translate({ text: 'x', direction: 'forward', agent: fixtureAgent() }));
      expect(events.at(-1)).toMatchObject({ engine: 'llm', final_translation: 'final translation' });
      expect((events.at(-1) as any).fallback_reason).toBeUndefined();
    });

    it('reports the failure in a status event and finishes with the built-in engine, adding spent tokens', async () => {
      double.enqueue(
        { kind: 'json', choices: ['a'], usage: { prompt_tokens: 40, completion_tokens: 1 } },
        { kind: 'stream', tokens: ['mi', ' c', 'asa'], cutAfter: 1 },
      );
      const events = await collect(
        new FallbackTranslationEngine(engine, builtinPort()).translate({ text: 'che róga', direction: 'forward', agent: fixtureAgent() }),
      );
      const statuses = events.filter((e) => e.type === 'status').map((e: any) => e.message);
      expect(statuses).toContain('LLM engine unavailable (stream interrupted); falling back to the built-in engine.');
      expect(statuses.at(-1)).toBe('builtin: retrieving');
      const done = events.at(-1) as any;
      expect(done).toMatchObject({
        type: 'translation_complete',
        final_translation: 'mi casa grande',
        engine: 'builtin',
        fallback_reason: 'stream_interrupted',
      });
      expect(done.usage.input_tokens).toBeGreaterThan(42);
    });

    it('does not swallow programming errors', async () => {
      const broken: TranslationEnginePort = {
        kind: 'llm',
        async *translate() {
          throw new TypeError('bug');
        },
      };
      await expect(
        collect(new FallbackTranslationEngine(broken, builtinPort()).translate({ text: 'x', direction: 'forward', agent: fixtureAgent() })),
      ).rejects.toThrow('bug');
    });
  });
});
