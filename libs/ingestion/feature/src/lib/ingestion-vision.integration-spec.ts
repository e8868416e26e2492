import { ingestionUploadKey } from '@gaia/contracts';
import { ingestionSchema } from '@gaia/ingestion/data-access';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { createTestApp, OpenAiDouble, type TestApp } from '@gaia/testing';
import { IngestionModule } from './ingestion.module';
import { IngestionEventRecorder } from '../testing/event-recorder';

/** With OPENAI_VISION_MODEL set, images are read by the vision model (here the OpenAI wire double). */
describe('ingestion with a vision model', () => {
  let t: TestApp;
  let double: OpenAiDouble;

  beforeAll(async () => {
    double = await OpenAiDouble.start();
    t = await createTestApp({
      schemas: [ingestionSchema],
      consumers: ['ingestion', 'agents', 'gateway', 'retrieval'],
      imports: [IngestionModule],
      providers: [IngestionEventRecorder],
      env: { OPENAI_VISION_MODEL: 'gpt-4o-mini', OPENAI_BASE_URL: double.baseUrl, OPENAI_API_KEY: 'test', OPENAI_MAX_RETRIES: '0' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await double?.close();
  });

  it('turns a photo of a bilingual page into pairs', async () => {
    double.enqueue({ kind: 'json', choices: ['{"pairs":[{"source":"Buenos días","target":"Mba’éichapa"},{"source":"Gracias","target":"Aguyje"}]}'] });
    const storage = t.app.get<FileStorage>(FILE_STORAGE);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const key = ingestionUploadKey('vision', 0);
    await storage.put(key, png);
    const rpc = t.app.get<RpcClient>(RPC_CLIENT);
    const res = await rpc.call('ingestion.start-processing.v1', {
      mode: 'create',
      ownerId: 'o',
      srcLang: 'es',
      tgtLang: 'gn',
      files: [{ key, filename: 'pagina.png', size: png.length }],
    });
    await t.drain();
    const { task } = await rpc.call('ingestion.get-task.v1', { taskId: res.task_id });
    expect(task).toMatchObject({ status: 'COMPLETED', text_blocks_extracted: 2, successful_files: 1 });
    expect(double.chatRequests).toHaveLength(1);
    expect(double.chatRequests[0].body.messages[0].content[1].image_url.url).toMatch(/^data:image\/png;base64,/);
  });
});
