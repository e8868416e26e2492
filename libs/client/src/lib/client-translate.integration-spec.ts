import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GaiaClient, type TranslateAnswer } from './gaia-client';

/** What an explained answer of POST /api/translate/ looks like (as the gateway answers it; the real one is covered in tests/api). */
const ANSWER: TranslateAnswer = {
  success: true,
  data: { translation: 'Biblioteca', raw_translation: 'Biblioteca' },
  confidence: 0.72,
  untranslated: [],
  applied_terms: [{ term: 'library', translation: 'biblioteca' }],
  source_text: 'library',
  response_time: 0.1,
  source_language: 'en',
  target_language: 'es',
  explanation: {
    examples: [{ source: 'the library', target: 'la biblioteca', score: 0.8 }],
    lexicon: [],
    glossary: [{ term: 'library', translation: 'biblioteca' }],
  },
};

describe('GaiaClient translate with explain', () => {
  let server: Server;
  let url: string;
  const bodies: unknown[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        bodies.push(JSON.parse(raw));
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(ANSWER));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends explain: true and answers the confidence, the applied glossary terms and the explanation, typed', async () => {
    const c = new GaiaClient({ baseUrl: url, apiKey: 'k' });
    const r = await c.translate({ text: 'library', model_id: 'm', src_lang: 'en', tgt_lang: 'es', explain: true });
    expect(bodies[0]).toEqual({ text: 'library', model_id: 'm', src_lang: 'en', tgt_lang: 'es', explain: true, stream: false });
    expect(r.confidence).toBe(0.72);
    expect(r.applied_terms).toEqual([{ term: 'library', translation: 'biblioteca' }]);
    expect(r.explanation?.examples[0]).toMatchObject({ source: 'the library', target: 'la biblioteca' });
  });
});
