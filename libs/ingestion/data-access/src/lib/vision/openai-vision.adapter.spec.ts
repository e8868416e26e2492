import { OpenAiDouble } from '@gaia/testing';
import { OpenAiVisionExtractor, pairsFromAnswer } from './openai-vision.adapter';

describe('OpenAiVisionExtractor (against the OpenAI wire double)', () => {
  let double: OpenAiDouble;
  beforeAll(async () => {
    double = await OpenAiDouble.start();
  });
  afterAll(() => double.close());

  it('sends an image as a data URL and reads the pairs from the JSON answer', async () => {
    double.enqueue({ kind: 'json', choices: ['```json\n{"pairs":[{"source":"Hola","target":"Maitei"},{"source":"x","target":""}]}\n```'] });
    const v = new OpenAiVisionExtractor({ baseURL: double.baseUrl, apiKey: 'k', model: 'gpt-4o-mini', maxRetries: 0 });
    const pairs = await v.extractPairs({ bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), mime: 'image/png', srcLang: 'es', tgtLang: 'gn', filename: 'a.png' });
    expect(pairs).toEqual([{ source: 'Hola', target: 'Maitei' }]);
    const body = double.chatRequests[0].body;
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.messages[0].content[1]).toEqual({ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } });
  });

  it('sends scanned PDF pages as a file part naming the pages', async () => {
    double.enqueue({ kind: 'json', choices: ['{"pairs":[]}'] });
    const v = new OpenAiVisionExtractor({ baseURL: double.baseUrl, model: 'vision', maxRetries: 0 });
    expect(
      await v.extractPairs({ bytes: new Uint8Array([1]), mime: 'application/pdf', srcLang: 'es', tgtLang: 'qu', filename: 's.pdf', pages: [2, 3] }),
    ).toEqual([]);
    const body = double.chatRequests[1].body;
    expect(body.messages[0].content[0].text).toMatch(/Read only page\(s\) 2, 3\.$/);
    expect(body.messages[0].content[1]).toEqual({ type: 'file', file: { filename: 's.pdf', file_data: 'data:application/pdf;base64,AQ==' } });
  });

  it('ignores answers that are not the expected JSON', () => {
    expect(pairsFromAnswer('sorry, I cannot read this')).toEqual([]);
    expect(pairsFromAnswer('{"pairs": "nope"}')).toEqual([]);
  });
});
