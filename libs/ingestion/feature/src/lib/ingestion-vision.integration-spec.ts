import { OpenAiDouble, type TestApp } from '@gaia/testing';
import { createIngestionTestApp, type IngestionTestApp } from '../testing/ingestion-test-app';

/** With OPENAI_VISION_MODEL set, images are read by the vision model (here the OpenAI wire double). */
describe('ingestion with a vision model', () => {
  let t: TestApp;
  let app: IngestionTestApp;
  let double: OpenAiDouble;

  beforeAll(async () => {
    double = await OpenAiDouble.start();
    app = await createIngestionTestApp({
      OPENAI_VISION_MODEL: 'gpt-4o-mini',
      OPENAI_BASE_URL: double.baseUrl,
      OPENAI_API_KEY: 'test',
      OPENAI_MAX_RETRIES: '0',
    });
    t = app.t;
  });
  afterAll(async () => {
    await t?.close();
    await double?.close();
  });

  it('turns a photo of a bilingual page into pairs', async () => {
    double.enqueue({ kind: 'json', choices: ['{"pairs":[{"source":"Buenos días","target":"Mba’éichapa"},{"source":"Gracias","target":"Aguyje"}]}'] });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const files = await app.upload('vision', [['pagina.png', png]]);
    const { rpc } = app;
    const res = await rpc.call('ingestion.start-processing.v1', { mode: 'create', ownerId: 'o', srcLang: 'es', tgtLang: 'gn', files });
    await t.drain();
    const { task } = await rpc.call('ingestion.get-task.v1', { taskId: res.task_id });
    expect(task).toMatchObject({ status: 'COMPLETED', text_blocks_extracted: 2, successful_files: 1 });
    expect(double.chatRequests).toHaveLength(1);
    expect(double.chatRequests[0].body.messages[0].content[1].image_url.url).toMatch(/^data:image\/png;base64,/);
  });
});
