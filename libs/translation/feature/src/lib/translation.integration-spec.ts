import { Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { lastValueFrom, toArray } from 'rxjs';
import type { RpcRequest, TranslationEventDto, UsageRecordedV1 } from '@gaia/contracts';
import { HybridIndex, serializeModel, trainAgentModel, type ParallelPair } from '@gaia/engine';
import { ManualClock } from '@gaia/shared/kernel';
import { OnEvent, RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { createTestApp, OpenAiDouble, type TestApp } from '@gaia/testing';
import {
  AGENT_DIRECTORY,
  AGENT_LOADER,
  type AgentLoader,
  buildAgentBrain,
  defaultArtifactKey,
  encodeAgentArtifacts,
  type AgentArtifacts,
  type AgentDirectoryPort,
  type TranslationAgentProfile,
} from '@gaia/translation/data-access';
import { loadLlmConfig } from '@gaia/translation/llm';
import { TranslationModule } from './translation.module';

/** Real es→gn pairs of the shared corpus (read in place, never copied). */
const DATA = '/work/shared/data/americasnlp2021/es-gn';
const N_PAIRS = 300;

function corpus(): ParallelPair[] {
  const es = readFileSync(`${DATA}/train.es`, 'utf8').split('\n');
  const gn = readFileSync(`${DATA}/train.gn`, 'utf8').split('\n');
  return es
    .slice(0, N_PAIRS)
    .map((source, i) => ({ id: `p${i}`, source: source.trim(), target: (gn[i] ?? '').trim() }))
    .filter((p) => p.source && p.target);
}

/** The agents service as the translation service sees it: profiles by id (unknown/deleted = absent). */
class TestAgentDirectory implements AgentDirectoryPort {
  readonly profiles = new Map<string, TranslationAgentProfile>();
  async find(id: string) {
    return this.profiles.get(id) ?? null;
  }
}

/** The billing consumer of `usage.recorded.v1`, through the real outbox → transport → inbox path. */
@Injectable()
class UsageProbe {
  static received: UsageRecordedV1[] = [];
  @OnEvent('billing', 'usage.recorded.v1')
  async onUsage(payload: UsageRecordedV1) {
    UsageProbe.received.push(payload);
  }

  /** Concurrent requests' usage committed together (the recorder's group commit). */
  @OnEvent('billing', 'usage.recorded-batch.v1')
  async onUsageBatch(payload: { records: UsageRecordedV1[] }) {
    UsageProbe.received.push(...payload.records);
  }
}

type Req = RpcRequest<'translation.translate.v1'>;

describe('translation service (real Postgres, in-process transport, engine artifacts in file storage)', () => {
  let double: OpenAiDouble;
  let t: TestApp;
  let rpc: RpcClient;
  const directory = new TestAgentDirectory();
  let artifacts: AgentArtifacts;
  let seq = 0;

  const profile = (over: Partial<TranslationAgentProfile> = {}): TranslationAgentProfile => ({
    id: 'agent-es-gn',
    srcLang: 'spanish',
    tgtLang: 'guarani',
    customPrompt: 'Spanish to Guaraní news agent',
    coreMemory: 'OWNER-NOTE: prefer Jopara loanwords for institutions.',
    engine: 'builtin',
    artifactsVersion: '1',
    ...over,
  });

  const request = (over: Partial<Req> = {}): Req => ({
    requestId: `req-${++seq}`,
    text: 'El presidente visitó la universidad',
    model_id: 'agent-es-gn',
    src_lang: 'spanish',
    tgt_lang: 'guarani',
    caller: { keyId: 'key-1', userId: null },
    ...over,
  });

  const translate = (req: Req): Promise<TranslationEventDto[]> => lastValueFrom(rpc.stream('translation.translate.v1', req).pipe(toArray()));

  beforeAll(async () => {
    double = await OpenAiDouble.start();
    const pairs = corpus();
    const index = new HybridIndex();
    index.add(pairs);
    artifacts = { model: serializeModel(trainAgentModel(pairs)), index: index.serialize() };
    t = await createTestApp({
      schemas: [],
      consumers: ['translation', 'billing'],
      imports: [
        TranslationModule.forRoot({
          directory: { provide: AGENT_DIRECTORY, useValue: directory },
          llm: loadLlmConfig({ OPENAI_API_KEY: 'sk-double', OPENAI_BASE_URL: double.baseUrl, OPENAI_CHAT_MODEL: 'double-chat', OPENAI_MAX_RETRIES: '2' }),
        }),
      ],
      providers: [UsageProbe],
    });
    rpc = t.app.get(RPC_CLIENT);
    const storage = t.app.get<FileStorage>(FILE_STORAGE);
    await storage.put(defaultArtifactKey('agent-es-gn', '1'), encodeAgentArtifacts(artifacts));
  });

  afterAll(async () => {
    await t?.close();
    await double?.close();
  });

  beforeEach(async () => {
    await t.drain(); // deliver what earlier tests left, so each test sees only its own usage events
    double.reset();
    UsageProbe.received = [];
    directory.profiles.set('agent-es-gn', profile());
  });

  it('built-in engine: events in order, final text, response_time, usage recorded once', async () => {
    const req = request();
    const events = await translate(req);
    const types = events.map((e) => e.type);
    expect(types.at(-1)).toBe('translation_complete');
    const firstChunk = types.indexOf('translation_chunk');
    expect(firstChunk).toBeGreaterThan(0);
    expect(types.slice(0, firstChunk).every((x) => x === 'status')).toBe(true);
    expect(types.slice(firstChunk, -1).every((x) => x === 'translation_chunk')).toBe(true);
    const done = events.at(-1) as Extract<TranslationEventDto, { type: 'translation_complete' }>;
    const streamed = events
      .filter((e) => e.type === 'translation_chunk')
      .map((e: any) => e.content)
      .join('');
    expect(done.final_translation.length).toBeGreaterThan(0);
    expect(streamed.trim()).toBe(done.final_translation.trim());
    expect(done).toMatchObject({ source_text: req.text, source_language: 'spanish', target_language: 'guarani', engine: 'builtin' });
    expect(done.response_time).toBeGreaterThan(0);
    // the built-in engine's untranslated spans and confidence reach the event (spans index into source_text)
    expect(done.confidence).toBeGreaterThan(0);
    expect(Array.isArray(done.untranslated)).toBe(true);
    for (const s of done.untranslated) expect(req.text.slice(s.start, s.end)).toBe(s.text);
    expect(double.requests).toHaveLength(0);

    await t.drain();
    expect(UsageProbe.received).toHaveLength(1);
    expect(UsageProbe.received[0]).toMatchObject({
      requestId: req.requestId,
      keyId: 'key-1',
      userId: null,
      agentId: 'agent-es-gn',
      sourceWords: 5,
      inputTokens: 5,
      engine: 'builtin',
      fallbackReason: null,
    });
    expect(UsageProbe.received[0].outputTokens).toBeGreaterThan(0);
    expect(UsageProbe.received[0].latencyMs).toBeGreaterThan(0);
  });

  it('final_only (the JSON answer): no status events, the chunks joined into one before translation_complete, usage recorded once', async () => {
    const streamed = await translate(request());
    const req = request({ final_only: true });
    const events = await translate(req);
    expect(events.map((e) => e.type)).toEqual(['translation_chunk', 'translation_complete']);
    const joined = streamed
      .filter((e) => e.type === 'translation_chunk')
      .map((e: any) => e.content)
      .join('');
    expect(events[0]).toEqual({ type: 'translation_chunk', content: joined });
    const [full, only] = [streamed.at(-1), events.at(-1)] as Extract<TranslationEventDto, { type: 'translation_complete' }>[];
    expect({ ...only, response_time: 0 }).toEqual({ ...full, response_time: 0 });
    await t.drain();
    expect(UsageProbe.received.filter((u) => u.requestId === req.requestId)).toHaveLength(1);

    // the LLM engine's raw stream (which may differ from its final text) is kept, joined
    directory.profiles.set('agent-es-gn', profile({ engine: 'llm' }));
    double.enqueue(
      { kind: 'json', choices: ['Presidente ohecha universidad'], usage: { prompt_tokens: 900, completion_tokens: 18 } },
      { kind: 'stream', tokens: ['Presidente', ' ohecha', ' universidad'], usage: { prompt_tokens: 1100, completion_tokens: 4 } },
    );
    const llm = await translate(request({ final_only: true }));
    expect(llm.map((e) => e.type)).toEqual(['translation_chunk', 'translation_complete']);
    expect(llm[0]).toEqual({ type: 'translation_chunk', content: 'Presidente ohecha universidad' });
    expect(llm[1]).toMatchObject({ final_translation: 'Presidente ohecha universidad', engine: 'llm' });
  });

  it('a request its schema refuses is a 400 DomainError in process too (the serving side parses it; the caller does not parse it twice)', async () => {
    const bad = { ...request(), caller: { keyId: '', userId: null } };
    await expect(lastValueFrom(rpc.stream('translation.translate.v1', bad))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('caller.keyId'),
    });
    await t.drain();
    expect(UsageProbe.received.filter((u) => u.requestId === bad.requestId)).toHaveLength(0);
  });

  it('a retried request (same requestId) is translated again but billed once', async () => {
    const req = request();
    await translate(req);
    await translate(req);
    await translate({ ...req });
    await t.drain();
    expect(UsageProbe.received.filter((u) => u.requestId === req.requestId)).toHaveLength(1);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox_event WHERE topic = 'usage.recorded.v1' AND request_id = $1`, [
      req.requestId,
    ]);
    expect(n).toBe(1);
  });

  it('swapped languages translate in reverse', async () => {
    const events = await translate(request({ text: "Ko'ã mba'e oikóva", src_lang: 'Guarani', tgt_lang: 'Spanish' }));
    expect(events.at(-1)).toMatchObject({ type: 'translation_complete', source_language: 'guarani', target_language: 'spanish' });
  });

  it('LLM engine: the prompt holds retrieved examples and core memory; chunks stream; tokens come from usage', async () => {
    directory.profiles.set('agent-es-gn', profile({ engine: 'llm' }));
    double.enqueue(
      {
        kind: 'json',
        choices: ['Presidente ohecha universidad', 'Presidente oho universidad-pe', 'Presidente ohecha universidad'],
        usage: { prompt_tokens: 900, completion_tokens: 18 },
      },
      { kind: 'stream', tokens: ['Presidente', ' ohecha', ' universidad'], usage: { prompt_tokens: 1100, completion_tokens: 4 } },
    );
    const req = request();
    const events = await translate(req);

    expect(double.chatRequests).toHaveLength(2);
    const [p1, p2] = double.chatRequests;
    const brain = buildAgentBrain(artifacts, { srcLang: 'spanish', tgtLang: 'guarani' });
    const examples = await brain.knowledge.retrieve(req.text, 'forward', 8);
    expect(examples.length).toBeGreaterThan(0);
    const p1User: string = p1.body.messages[1].content;
    const p1System: string = p1.body.messages[0].content;
    for (const ex of examples) expect(p1User).toContain(`spanish: ${ex.source.replace(/\s+/g, ' ')}`);
    expect(p1System).toContain('OWNER-NOTE: prefer Jopara loanwords for institutions.');
    expect(p1System).toContain(brain.learnedSummary.split('\n')[0]);
    expect(p1User).toContain(`<source>\n${req.text}\n</source>`);
    expect(p1.body).toMatchObject({ model: 'double-chat', n: 3 });
    expect(p2.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(p2.body.messages[1].content).toContain('[sampled] Presidente ohecha universidad');
    expect(p2.body.messages[1].content).toContain('[built-in engine draft]');

    expect(events.filter((e) => e.type === 'translation_chunk').map((e: any) => e.content)).toEqual(['Presidente', ' ohecha', ' universidad']);
    expect(events.at(-1)).toMatchObject({ type: 'translation_complete', final_translation: 'Presidente ohecha universidad', engine: 'llm' });
    await t.drain();
    expect(UsageProbe.received).toHaveLength(1);
    expect(UsageProbe.received[0]).toMatchObject({ engine: 'llm', inputTokens: 2000, outputTokens: 22, fallbackReason: null });
  });

  it("counts the provider's Retry-After date on the app CLOCK (a date one second after the CLOCK is waited for, not refused as a year away)", async () => {
    // A year ahead of the system clock, on a whole second (HTTP dates have no milliseconds).
    const clock = new ManualClock(new Date(Math.floor(Date.now() / 1000) * 1000 + 365 * 86_400_000));
    const timed = await createTestApp({
      schemas: [],
      consumers: ['translation'],
      clock,
      imports: [
        TranslationModule.forRoot({
          directory: { provide: AGENT_DIRECTORY, useValue: directory },
          llm: loadLlmConfig({ OPENAI_API_KEY: 'sk-double', OPENAI_BASE_URL: double.baseUrl, OPENAI_CHAT_MODEL: 'double-chat', OPENAI_MAX_RETRIES: '2' }),
        }),
      ],
    });
    try {
      await timed.app.get<FileStorage>(FILE_STORAGE).put(defaultArtifactKey('agent-es-gn', '1'), encodeAgentArtifacts(artifacts));
      directory.profiles.set('agent-es-gn', profile({ engine: 'llm' }));
      double.enqueue(
        { kind: 'error', status: 429, retryAfter: new Date(clock.now().getTime() + 1000).toUTCString() },
        { kind: 'json', choices: ['Presidente ohecha universidad'], usage: { prompt_tokens: 900, completion_tokens: 6 } },
        { kind: 'stream', tokens: ['Presidente', ' ohecha', ' universidad'], usage: { prompt_tokens: 1100, completion_tokens: 4 } },
      );
      const events = await lastValueFrom(timed.app.get<RpcClient>(RPC_CLIENT).stream('translation.translate.v1', request()).pipe(toArray()));
      expect(double.chatRequests).toHaveLength(3);
      expect(events.at(-1)).toMatchObject({ type: 'translation_complete', final_translation: 'Presidente ohecha universidad', engine: 'llm' });
    } finally {
      await timed.close();
    }
  });

  it('LLM failure (500s beyond the retries) falls back to the built-in engine, said in a status event', async () => {
    directory.profiles.set('agent-es-gn', profile({ engine: 'llm' }));
    double.enqueue({ kind: 'error', status: 500 }, { kind: 'error', status: 503 }, { kind: 'error', status: 500 });
    const events = await translate(request());
    expect(double.chatRequests).toHaveLength(3);
    expect(events.filter((e) => e.type === 'status').map((e: any) => e.message)).toContain(
      'LLM engine unavailable (server error); falling back to the built-in engine.',
    );
    const done = events.at(-1) as any;
    expect(done).toMatchObject({ type: 'translation_complete', engine: 'builtin' });
    expect(done.final_translation.length).toBeGreaterThan(0);
    await t.drain();
    expect(UsageProbe.received).toHaveLength(1);
    expect(UsageProbe.received[0]).toMatchObject({ engine: 'builtin', fallbackReason: 'server_error' });
  });

  it('a cut-off LLM stream falls back and still bills the tokens spent', async () => {
    directory.profiles.set('agent-es-gn', profile({ engine: 'llm' }));
    double.enqueue(
      { kind: 'json', choices: ['a'], usage: { prompt_tokens: 700, completion_tokens: 3 } },
      { kind: 'stream', tokens: ['Presidente', ' ohecha', ' universidad'], cutAfter: 1 },
    );
    const events = await translate(request());
    expect(events.some((e) => e.type === 'status' && e.message.includes('stream interrupted'))).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'translation_complete', engine: 'builtin' });
    await t.drain();
    expect(UsageProbe.received[0].inputTokens).toBeGreaterThan(700);
    expect(UsageProbe.received[0].fallbackReason).toBe('stream_interrupted');
  });

  it.each([
    ['51 words', { text: Array.from({ length: 51 }, () => 'palabra').join(' ') }, 400, 'Text is too long: 51 words (maximum 50).'],
    ['2,001 characters', { text: 'a'.repeat(2001) }, 400, 'Text is too long: 2,001 characters (maximum 2,000).'],
    ['blank text', { text: '   ' }, 400, 'Please enter text to translate.'],
    ['an unknown agent', { model_id: 'nope' }, 404, 'Model not found.'],
    [
      'other languages',
      { src_lang: 'spanish', tgt_lang: 'quechua' },
      400,
      'This agent translates between spanish and guarani; it cannot translate spanish to quechua.',
    ],
  ])('refuses %s with a clear error and records nothing', async (_what, over, status, message) => {
    await expect(translate(request(over as Partial<Req>))).rejects.toMatchObject({ status, message });
    await t.drain();
    expect(UsageProbe.received).toHaveLength(0);
  });

  it('a deleted agent (gone from the directory) is not found; an agent without artifacts is not ready', async () => {
    directory.profiles.delete('agent-es-gn');
    await expect(translate(request())).rejects.toMatchObject({ status: 404, message: 'Model not found.' });
    directory.profiles.set('agent-es-gn', profile({ artifactsVersion: null }));
    await expect(translate(request())).rejects.toMatchObject({ status: 409, code: 'agent_not_ready' });
    directory.profiles.set('agent-es-gn', profile({ artifactsVersion: '99' }));
    await expect(translate(request())).rejects.toMatchObject({ status: 409, code: 'agent_not_ready' });
  });

  it('concurrent requests for a new agent version share one load; a deleted agent is dropped from memory', async () => {
    const loader = t.app.get<AgentLoader>(AGENT_LOADER);
    await t.app.get<FileStorage>(FILE_STORAGE).put(defaultArtifactKey('agent-es-gn', '2'), encodeAgentArtifacts(artifacts));
    directory.profiles.set('agent-es-gn', profile({ artifactsVersion: '2' }));
    const before = loader.stats().loads;
    const results = await Promise.all(Array.from({ length: 5 }, () => translate(request())));
    expect(results.every((events) => events.at(-1)?.type === 'translation_complete')).toBe(true);
    expect(loader.stats().loads - before).toBe(1);
    expect(results.filter((events) => events[0].type === 'status' && events[0].message === 'Agent loaded.').length).toBeGreaterThanOrEqual(1);
    expect(loader.isWarm('agent-es-gn')).toBe(true);
    directory.profiles.delete('agent-es-gn');
    await expect(translate(request())).rejects.toMatchObject({ status: 404 });
    expect(loader.isWarm('agent-es-gn')).toBe(false);
  });

  it('50 words and exactly 2,000 characters are accepted', async () => {
    const fifty = Array.from({ length: 50 }, () => 'universidad').join(' ');
    expect((await translate(request({ text: fifty }))).at(-1)?.type).toBe('translation_complete');
    const long = Array.from({ length: 40 }, () => 'a'.repeat(49)).join(' ') + ' ' + 'b'.repeat(2000 - 40 * 50);
    expect(long.length).toBe(2000);
    expect((await translate(request({ text: long }))).at(-1)?.type).toBe('translation_complete');
  });
});

/**
 * A translation service without LLM configuration whose one agent `profile` has artifacts learned from 60 pairs of the
 * corpus; runs `use` with its RPC client, then closes it.
 */
async function withLearnedAgent(profile: TranslationAgentProfile, transport: 'nats' | undefined, use: (rpc: RpcClient) => Promise<void>): Promise<void> {
  const directory = new TestAgentDirectory();
  const pairs = corpus().slice(0, 60);
  const index = new HybridIndex();
  index.add(pairs);
  const t = await createTestApp({
    schemas: [],
    ...(transport ? { transport } : {}),
    consumers: ['translation', 'billing'],
    imports: [TranslationModule.forRoot({ directory: { provide: AGENT_DIRECTORY, useValue: directory }, llm: null })],
    providers: [UsageProbe],
  });
  try {
    directory.profiles.set(profile.id, profile);
    await t.app
      .get<FileStorage>(FILE_STORAGE)
      .put(
        defaultArtifactKey(profile.id, profile.artifactsVersion!),
        encodeAgentArtifacts({ model: serializeModel(trainAgentModel(pairs)), index: index.serialize() }),
      );
    await use(t.app.get<RpcClient>(RPC_CLIENT));
  } finally {
    await t.close();
  }
}

describe('translation service without LLM configuration', () => {
  it('an agent set to the LLM engine uses the built-in engine and says so', async () => {
    await withLearnedAgent(
      { id: 'a1', srcLang: 'es', tgtLang: 'gn', customPrompt: '', coreMemory: '', engine: 'llm', artifactsVersion: '3' },
      undefined,
      async (rpc) => {
        const events = await lastValueFrom(
          rpc
            .stream('translation.translate.v1', {
              requestId: 'r1',
              text: 'la universidad',
              model_id: 'a1',
              src_lang: 'es',
              tgt_lang: 'gn',
              caller: { keyId: null, userId: 'u1' },
            })
            .pipe(toArray()),
        );
        expect(events).toContainEqual({ type: 'status', message: 'The LLM engine is not configured; using the built-in engine.' });
        expect(events.at(-1)).toMatchObject({ type: 'translation_complete', engine: 'builtin' });
      },
    );
  });
});

describe('translation service over NATS (the transport between separate gateway and translation processes)', () => {
  it('streams the events of a translation and fails a bad request with the DomainError status', async () => {
    await withLearnedAgent(
      { id: 'n1', srcLang: 'es', tgtLang: 'gn', customPrompt: '', coreMemory: '', engine: 'builtin', artifactsVersion: '1' },
      'nats',
      async (rpc) => {
        const base = { text: 'la universidad', model_id: 'n1', src_lang: 'es', tgt_lang: 'gn', caller: { keyId: 'k', userId: null } };
        const events = await lastValueFrom(rpc.stream('translation.translate.v1', { requestId: `nats-${Date.now()}`, ...base }).pipe(toArray()));
        expect(events[0].type).toBe('status');
        expect(events.at(-1)).toMatchObject({ type: 'translation_complete', engine: 'builtin', source_text: 'la universidad' });
        await expect(lastValueFrom(rpc.stream('translation.translate.v1', { requestId: 'nats-bad', ...base, model_id: 'missing' }))).rejects.toMatchObject({
          status: 404,
          message: 'Model not found.',
        });
      },
    );
  });
});
