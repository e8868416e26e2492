// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUBLIC_KEY, startApiServer, type ApiServer } from '../test/api-server';
import { SseLineParser, translate, TRANSLATION_FAILED } from './translate-stream';
import type { TranslationEventDto } from '@gaia/contracts';

describe('SseLineParser', () => {
  it("parses 'data: ' lines split across chunks, warns on unparsable ones and goes on", () => {
    const events: TranslationEventDto[] = [];
    const warn = vi.fn();
    const parser = new SseLineParser((e) => events.push(e), { warn });
    parser.push('data: {"type":"status","mess');
    parser.push('age":"Working"}\n\ndata: {broken json}\n');
    parser.push(': comment\nevent: x\ndata: {"type":"translation_chunk","content":"Hola"}\r\n');
    parser.push('data: {"type":"translation_complete","final_translation":"Hola","response_time":0.5}');
    parser.end();
    expect(events).toEqual([
      { type: 'status', message: 'Working' },
      { type: 'translation_chunk', content: 'Hola' },
      { type: 'translation_complete', final_translation: 'Hola', response_time: 0.5 },
    ]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][1])).toBe('{broken json}');
  });
});

describe('translate() against a real HTTP server', () => {
  let server: ApiServer;
  beforeEach(async () => {
    server = await startApiServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('streams events with the X-API-Key header and stream=true, resolving with the final translation', async () => {
    server.translateLines.splice(1, 0, 'data: not json at all');
    const events: string[] = [];
    const warn = vi.fn();
    const result = await translate(
      { text: 'Allinllachu', model_id: 'agent-1', src_lang: 'quechua', tgt_lang: 'spanish' },
      { apiKey: PUBLIC_KEY, baseUrl: server.origin, onEvent: (e) => events.push(e.type), logger: { warn } },
    );
    expect(result).toEqual({
      translation: 'Hola mundo',
      responseTime: 1.5,
      confidence: 0.8,
      untranslated: [],
      explanation: null,
      appliedTerms: [],
      engine: 'builtin',
    });
    expect(events).toEqual(['status', 'translation_chunk', 'translation_chunk', 'translation_complete']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(server.translateCalls[0].headers['x-api-key']).toBe(PUBLIC_KEY);
    expect(server.translateCalls[0].body).toEqual({ text: 'Allinllachu', model_id: 'agent-1', src_lang: 'quechua', tgt_lang: 'spanish', stream: true });
  });

  it('rejects with the server error text on a non-2xx answer', async () => {
    await expect(translate({ text: 'x', model_id: 'agent-1', src_lang: 'a', tgt_lang: 'b' }, { apiKey: 'wrong', baseUrl: server.origin })).rejects.toThrow(
      'Invalid API key.',
    );
  });

  it('rejects with the message of an error event', async () => {
    server.translateLines = ['data: {"type":"translation_chunk","content":"Ho"}', 'data: {"type":"error","message":"Model not found."}'];
    await expect(translate({ text: 'x', model_id: 'agent-1', src_lang: 'a', tgt_lang: 'b' }, { apiKey: PUBLIC_KEY, baseUrl: server.origin })).rejects.toThrow(
      'Model not found.',
    );
  });
});

describe('translate() with a JSON answer', () => {
  it("reads {success, data} and fails with 'Translation failed' when they are missing", async () => {
    const { createServer } = await import('node:http');
    let answer: unknown = {
      success: true,
      data: { translation: 'Hola', raw_translation: 'Hola' },
      confidence: 0.4,
      untranslated: [{ start: 0, end: 1, text: 'x' }],
      applied_terms: [{ term: 'x', translation: 'equis' }],
      response_time: 0.8,
      source_text: 'x',
    };
    const srv = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
    try {
      await expect(translate({ text: 'x', model_id: 'm', src_lang: 'a', tgt_lang: 'b' }, { baseUrl: origin })).resolves.toEqual({
        translation: 'Hola',
        responseTime: 0.8,
        confidence: 0.4,
        untranslated: [{ start: 0, end: 1, text: 'x' }],
        explanation: null,
        appliedTerms: [{ term: 'x', translation: 'equis' }],
        engine: null,
      });
      answer = { success: false };
      await expect(translate({ text: 'x', model_id: 'm', src_lang: 'a', tgt_lang: 'b' }, { baseUrl: origin })).rejects.toThrow(TRANSLATION_FAILED);
    } finally {
      await new Promise((r) => srv.close(r));
    }
  });
});

describe('toSeconds', () => {
  it('accepts numbers and numeric strings, else null', async () => {
    const { toSeconds } = await import('./translate-stream');
    expect(toSeconds(1.25)).toBe(1.25);
    expect(toSeconds('0.5')).toBe(0.5);
    expect(toSeconds('')).toBeNull();
    expect(toSeconds(undefined)).toBeNull();
    expect(toSeconds('abc')).toBeNull();
  });
});
