import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PUBLIC_KEY, startApiServer } from './api-server';

/** POSTs a translation to the stand-in and resolves once the answer's first chunk is in (the rest may be held). */
function translateStarted(origin: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}/api/translate/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': PUBLIC_KEY } }, (res) => {
      res.once('data', () => resolve());
      res.on('error', () => undefined);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ text: 'hola', model_id: 'm', src_lang: 'es', tgt_lang: 'qu', stream: true }));
  });
}

describe('the gateway stand-in of the web tests', () => {
  it('closes while a translation is held before its last line (a test that failed before release() does not hang its close)', async () => {
    const server = await startApiServer();
    server.holdBeforeLast = true;
    await translateStarted(server.origin);
    await server.close();
    expect(server.translateCalls).toHaveLength(1);
  });
});
