import { OpenAiDouble } from '@gaia/testing';
import { LlmClient } from './llm-client';
import { loadLlmConfig } from './llm.config';
import { LlmVisionExtractor, ingestionVisionExtractor, parsePairs } from './vision-extractor';

describe('parsePairs', () => {
  it('accepts the requested shape, fences, prose, bare arrays, tuples and language-named keys', () => {
    expect(parsePairs('{"pairs":[{"source":" che  róga ","target":"mi casa"}]}')).toEqual([{ source: 'che róga', target: 'mi casa' }]);
    expect(parsePairs('Here you go:\n```json\n[{"src":"a","tgt":"b"}]\n```')).toEqual([{ source: 'a', target: 'b' }]);
    expect(parsePairs('{"sentences":[["a","b"],["c"]]}')).toEqual([{ source: 'a', target: 'b' }]);
    expect(parsePairs('{"items":[{"Guarani":"a","Spanish":"b"}]}', 'guarani', 'spanish')).toEqual([{ source: 'a', target: 'b' }]);
  });

  it('drops junk, empty sides and duplicates, and never throws', () => {
    expect(parsePairs('{"pairs":[{"source":"a","target":"b"},{"source":"a","target":"b"},{"source":"","target":"x"},{"source":1,"target":"y"},null]}')).toEqual([
      { source: 'a', target: 'b' },
    ]);
    expect(parsePairs('no json here')).toEqual([]);
    expect(parsePairs('{"pairs": [')).toEqual([]);
  });
});

describe('LlmVisionExtractor', () => {
  let double: OpenAiDouble;
  beforeAll(async () => {
    double = await OpenAiDouble.start();
  });
  afterAll(() => double.close());

  it('sends the image as a data URL to the vision model in JSON mode and parses the pairs', async () => {
    const config = loadLlmConfig({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: double.baseUrl, OPENAI_CHAT_MODEL: 'chat', OPENAI_VISION_MODEL: 'vision' })!;
    double.enqueue({ kind: 'json', choices: ['{"pairs":[{"source":"Mba’éichapa","target":"Hola"}]}'], usage: { prompt_tokens: 800, completion_tokens: 20 } });
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const res = await new LlmVisionExtractor(new LlmClient(config)).extractPairs(bytes, 'image/png', 'guarani', 'spanish');
    expect(res).toEqual({ pairs: [{ source: 'Mba’éichapa', target: 'Hola' }], usage: { input_tokens: 800, output_tokens: 20 } });
    const body = double.chatRequests[0].body;
    expect(body.model).toBe('vision');
    expect(body.response_format).toEqual({ type: 'json_object' });
    const parts = body.messages[1].content;
    expect(parts[0].text).toContain('Source language: guarani. Target language: spanish.');
    expect(parts[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(bytes).toString('base64')}` } });
  });

  it('sends PDF pages as a file part naming the pages (ingestion input shape)', async () => {
    const config = loadLlmConfig({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: double.baseUrl })!;
    double.reset();
    double.enqueue({ kind: 'json', choices: ['```json\n{"pairs":[["Hola","Maitei"]]}\n```'] });
    const pairs = await ingestionVisionExtractor(new LlmClient(config))!.extractPairs({
      bytes: new TextEncoder().encode('%PDF-1.4'),
      mime: 'application/pdf',
      srcLang: 'es',
      tgtLang: 'gn',
      filename: 'escaneo.pdf',
      pages: [2, 3],
    });
    expect(pairs).toEqual([{ source: 'Hola', target: 'Maitei' }]);
    const parts = double.chatRequests[0].body.messages[1].content;
    expect(parts[0].text).toContain('List the sentence pairs on pages 2, 3 of this PDF.');
    expect(parts[1]).toEqual({ type: 'file', file: { filename: 'escaneo.pdf', file_data: `data:application/pdf;base64,${Buffer.from('%PDF-1.4').toString('base64')}` } });
    expect(ingestionVisionExtractor(null)).toBeNull();
  });

  it('refuses other types before calling the endpoint', async () => {
    const config = loadLlmConfig({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: double.baseUrl })!;
    double.reset();
    await expect(new LlmVisionExtractor(new LlmClient(config)).extractPairs(new Uint8Array([1]), 'text/plain', 'a', 'b')).rejects.toMatchObject({
      reason: 'client_error',
    });
    expect(double.requests).toHaveLength(0);
  });
});
