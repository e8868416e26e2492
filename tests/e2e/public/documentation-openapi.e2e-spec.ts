import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, openContext } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const normalise = (path: string) => path.replace(/\/+$/, '').replace(/\{[^}]+\}|:[A-Za-z_]+/g, '{}');

describe('the documentation page', () => {
  it('documents only endpoints that the gateway OpenAPI document declares, with the same methods', async () => {
    const res = await fetch(`${baseUrl()}/api/docs-json`);
    expect(res.status).toBe(200);
    const openapi = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    const declared = new Map(Object.entries(openapi.paths).map(([p, ops]) => [normalise(p), Object.keys(ops).map((m) => m.toUpperCase())]));

    const { context, page } = await openContext(browser);
    try {
      await page.goto('/documentation');
      const items = page.getByTestId('documented-endpoint');
      await items.first().waitFor();
      const documented = await items.evaluateAll((els) =>
        els.map((el) => ({ method: el.getAttribute('data-method') ?? '', path: el.getAttribute('data-path') ?? '' })),
      );
      expect(documented.length).toBeGreaterThan(0);
      for (const { method, path } of documented) {
        expect(declared.get(normalise(path)), `${method} ${path} is not in the OpenAPI document`).toContain(method);
      }
    } finally {
      await context.close();
    }
  });
});
