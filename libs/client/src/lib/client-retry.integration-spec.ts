import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GaiaClient } from './gaia-client';
import { GaiaRateLimitError, GaiaServerError } from './errors';

/**
 * The opt-in retry against a real HTTP server that answers like the gateway when it is saturated
 * (429/503 + Retry-After, `{ error }`), then recovers. The gateway's own 429s are covered in tests/api.
 */
describe('GaiaClient retry', () => {
  let server: Server;
  let url: string;
  let script: Array<{ status: number; retryAfter?: string }> = [];
  const seen: Array<{ method: string; idempotencyKey: string | undefined }> = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      req.resume();
      seen.push({ method: req.method ?? '', idempotencyKey: req.headers['idempotency-key'] as string | undefined });
      const next = script.shift() ?? { status: 200 };
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (next.retryAfter !== undefined) headers['Retry-After'] = next.retryAfter;
      res.writeHead(next.status, headers);
      res.end(JSON.stringify(next.status === 200 ? { success: true, api_keys: [] } : { error: `status ${next.status}` }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    seen.length = 0;
  });

  it('waits the Retry-After of each 429/503 and resends the write with the same Idempotency-Key', async () => {
    script = [
      { status: 429, retryAfter: '1' },
      { status: 503, retryAfter: '0' },
    ];
    const waits: Array<{ attempt: number; status: number; delayMs: number }> = [];
    const c = new GaiaClient({ baseUrl: url, retry: { retries: 3, onRetry: ({ attempt, status, delayMs }) => waits.push({ attempt, status, delayMs }) } });
    await expect(c.revokeApiKey('k1')).resolves.toEqual({ success: true, api_keys: [] });
    expect(waits).toEqual([
      { attempt: 1, status: 429, delayMs: 1000 },
      { attempt: 2, status: 503, delayMs: 0 },
    ]);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.idempotencyKey)).size).toBe(1);
    expect(seen[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reads Retry-After in seconds for the wait, and gives up after the last attempt with the typed error', async () => {
    script = [
      { status: 429, retryAfter: '0' },
      { status: 429, retryAfter: '0' },
    ];
    const c = new GaiaClient({ baseUrl: url, retry: { retries: 1 } });
    const e = await c.listApiKeys().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GaiaRateLimitError);
    expect(e).toMatchObject({ status: 429, message: 'status 429', retryAfterSeconds: 0 });
    expect(seen).toHaveLength(2);
    expect(seen.every((s) => s.idempotencyKey === undefined)).toBe(true);
  });

  it('does not retry without the option, nor a 500', async () => {
    script = [{ status: 503, retryAfter: '0' }];
    await expect(new GaiaClient({ baseUrl: url }).listApiKeys()).rejects.toBeInstanceOf(GaiaServerError);
    script = [{ status: 500 }];
    await expect(new GaiaClient({ baseUrl: url, retry: { retries: 3 } }).listApiKeys()).rejects.toMatchObject({ status: 500 });
    expect(seen).toHaveLength(2);
  });
});
