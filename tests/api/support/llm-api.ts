import { OpenAiDouble, type TestApp } from '@gaia/testing';
import { TranslationModule } from '@gaia/translation/feature';
import { loadLlmConfig } from '@gaia/translation/llm';
import { startApi } from './api-app';

/** The platform's API with the LLM engine configured on an OpenAI wire double. */
export interface LlmApi {
  t: TestApp & { url: string };
  double: OpenAiDouble;
  close(): Promise<void>;
}

/**
 * The platform's composition with translation's LLM engine on the OpenAI wire double (model `test-chat`, two
 * phase-1 candidates, 5 s per call) and a per-IP sign-in limit no test reaches.
 */
export async function startApiWithLlmDouble(): Promise<LlmApi> {
  const double = await OpenAiDouble.start();
  const llm = loadLlmConfig({
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: double.baseUrl,
    OPENAI_CHAT_MODEL: 'test-chat',
    OPENAI_CANDIDATES: '2',
    OPENAI_TIMEOUT_MS: '5000',
  });
  const t = await startApi({
    without: ['TranslationModule'],
    imports: [TranslationModule.forRoot({ llm })],
    gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] },
  }).catch(async (err: unknown) => {
    await double.close();
    throw err;
  });
  return {
    t,
    double,
    close: async () => {
      await t.close();
      await double.close();
    },
  };
}
