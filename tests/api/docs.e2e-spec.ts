import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { TestApp } from '@gaia/testing';
import { startApi } from './support/api-app';

describe('OpenAPI at /api/docs', () => {
  let t: TestApp & { url: string };
  beforeAll(async () => {
    t = await startApi();
  });
  afterAll(() => t?.close());

  it('serves the Swagger UI and the JSON document, which covers every committed path', async () => {
    const ui = await request(t.url).get('/api/docs').redirects(2).expect(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
    expect(ui.text).toContain('swagger');
    const served = (await request(t.url).get('/api/docs-json').expect(200)).body as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(served.openapi).toMatch(/^3\./);
    const committed = JSON.parse(readFileSync(join(__dirname, '../../docs/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    for (const [path, methods] of Object.entries(committed.paths)) {
      for (const m of Object.keys(methods)) expect(`${m} ${path} ${Boolean(served.paths[path]?.[m])}`).toBe(`${m} ${path} true`);
    }
    expect(served.paths['/api/translate']['post']).toEqual(committed.paths['/api/translate']['post']);
  });
});
