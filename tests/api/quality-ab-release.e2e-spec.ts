import type { DynamicModule, Provider } from '@nestjs/common';
import { OpenAiDouble } from '@gaia/testing';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { TranslationModule } from '@gaia/translation/feature';
import { LLM_ENGINE, loadLlmConfig, type EngineEvent, type TranslateRequest, type TranslationEnginePort } from '@gaia/translation/llm';
import { signUp, startApi, type User } from './support/api-app';
import { QUALITY_CORPUS as CORPUS } from './support/quality-corpus';
import { uploadAndAwaitQuality } from './support/quality-build';

/** The LLM engine of this test: it fails on every call with an error that is no fallback signal (a bug, a crash). */
class CrashingEngine implements TranslationEnginePort {
  readonly kind = 'llm' as const;
  calls = 0;
  async *translate(_request: TranslateRequest): AsyncGenerator<EngineEvent> {
    this.calls++;
    throw new TypeError('engine crashed');
  }
}

/** TranslationModule with the LLM configured (on the wire double) and its LLM engine replaced by `engine`. */
function translationWith(llmBaseUrl: string, engine: TranslationEnginePort): DynamicModule {
  const llm = loadLlmConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llmBaseUrl, OPENAI_CHAT_MODEL: 'test-chat' });
  const mod = TranslationModule.forRoot({ llm });
  const providers = (mod.providers ?? []).map((p: Provider) =>
    typeof p === 'object' && 'provide' in p && p.provide === LLM_ENGINE ? { provide: LLM_ENGINE, useValue: engine } : p,
  );
  return { ...mod, providers };
}

/**
 * The A/B authorizes one unit of the owner's plan before its first LLM call. When the job then fails on every
 * attempt, the unit is given back after the last one: the owner is neither charged for nor blocked by a run that
 * produced nothing (an earlier attempt keeps it: the retry authorizes the same request id again, counted once).
 */
describe('quality A/B that fails after authorizing', () => {
  let double: OpenAiDouble;
  let t: Awaited<ReturnType<typeof startApi>>;
  let owner: User;
  const engine = new CrashingEngine();

  beforeAll(async () => {
    double = await OpenAiDouble.start();
    t = await startApi({ without: ['TranslationModule'], imports: [translationWith(double.baseUrl, engine)] });
    owner = await signUp(t.url, 'ab-release');
  });
  afterAll(async () => {
    await t?.close();
    await double?.close();
  });

  it("gives the owner's unit back when the last attempt fails", async () => {
    const agent = await uploadAndAwaitQuality(t, owner, CORPUS);
    expect(agent.quality.measured).toBe(true);
    const backlog = await t.drain(); // the A/B job, through all its attempts
    expect(backlog.failedJobs).toBe(1);
    expect(engine.calls).toBe(3); // one per attempt: each crashed on its first pair
    expect((await owner.agent.get(`/api/agents/${agent.id}`).expect(200)).body.quality.ab).toBeNull();

    // The Free plan's 10 daily calls: after this probe 9 are left, none taken by the failed A/B.
    const probe = await t.app
      .get<RpcClient>(RPC_CLIENT)
      .call('billing.authorize.v1', { requestId: `probe-${agent.id}`, keyId: null, userId: owner.uid, channel: 'web', words: 1 });
    expect(probe.remaining_today).toBe(9);
  });
});
