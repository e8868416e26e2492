import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overflowingElements, visibleEnglish } from '../support/page-checks';
import { DESKTOP, findPublicAgent, launchBrowser, MOBILE, openContext, screenshot, seriousA11yViolations } from './support/browser';

/**
 * Every public route, in English and Spanish, at 1366×900 and 390×844: it renders its content with no console
 * error (failed resources included: a visitor is signed out, which is not an error), no serious/critical axe
 * finding, no element wider than the viewport, the footer at the bottom of the page, and in Spanish no visible
 * English text. A screenshot of each state goes to tests/e2e/screenshots.
 */
let browser: Browser;
let agentId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  agentId = (await findPublicAgent()).id;
});
afterAll(async () => {
  await browser?.close();
});

interface RouteCase {
  name: string;
  path: () => string;
  /** Waits until the page shows its content (language-neutral: landmarks and test ids). */
  ready: (page: Page) => Promise<unknown>;
  /** Checks of this route, run once it is ready. */
  check?: (page: Page, viewport: { width: number; height: number }) => Promise<void>;
}

const h1 = (page: Page) => page.locator('main h1').first().waitFor();

/** Names that are the same in both languages (brands, plans, languages, people, code-like words). */
const NAMES: (string | RegExp)[] = [
  'Gaia',
  'Starter',
  'Enterprise',
  'BERTScore',
  'cURL',
  'JavaScript',
  'API',
  'JSON',
  'SSE',
  'Quechua',
  'Guaraní',
  'AmericasNLP',
  /^[A-Z][a-z]+ → [A-Z][a-z]+$/,
];

const ROUTES: RouteCase[] = [
  {
    name: 'landing',
    path: () => '/',
    ready: async (page) => {
      await h1(page);
      await page.locator('#navigation-tabs').waitFor();
      // The lazy globe chunk has replaced its loading placeholder (canvas, or the list without WebGL).
      await page.locator('.globe-wrap canvas, .globe-wrap .language-chips').first().waitFor();
    },
    check: async (page, viewport) => {
      const canvas = page.locator('.globe-wrap canvas');
      if (await canvas.count()) {
        const box = (await canvas.boundingBox())!;
        const wrap = (await page.locator('.globe-wrap').boundingBox())!;
        expect(box.width, 'the globe canvas fits its box').toBeLessThanOrEqual(wrap.width + 1);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      }
    },
  },
  { name: 'pricing', path: () => '/pricing', ready: (page) => page.locator('.plans').waitFor() },
  { name: 'privacy', path: () => '/privacy', ready: h1 },
  { name: 'post', path: () => '/post/human-level-translation-no-resource-languages', ready: h1 },
  { name: 'post-not-found', path: () => '/post/no-such-post', ready: h1 },
  { name: 'not-found', path: () => '/no-such-page', ready: h1 },
  { name: 'datasets', path: () => '/datasets', ready: (page) => page.locator('main select').first().waitFor() },
  { name: 'models', path: () => '/models', ready: (page) => page.locator('main select').first().waitFor() },
  { name: 'model-detail', path: () => `/models/${encodeURIComponent(agentId)}`, ready: (page) => page.locator('main h2').first().waitFor() },
  {
    name: 'documentation',
    path: () => '/documentation',
    ready: (page) => page.getByTestId('measured-response-time').waitFor(),
    check: async (page, viewport) => {
      // Every cell of the parameter table is on screen (no description column cut off behind a scroll).
      const cells = await page.locator('#doc-parameters td').evaluateAll((tds) => tds.map((td) => Math.round(td.getBoundingClientRect().right)));
      expect(cells.length).toBeGreaterThan(0);
      expect(Math.max(...cells), 'parameter table cells within the viewport').toBeLessThanOrEqual(viewport.width);
      // Figures measured by the benchmarks, not claims.
      const benchmarks = await page.locator('#doc-benchmarks').innerText();
      expect(benchmarks).not.toMatch(/1-3 (seconds|segundos)|99[.,]9/);
      expect(await page.getByTestId('measured-response-time').innerText()).toMatch(/\d+(?:[.,]\d+)? (ms|s) · \d+(?:[.,]\d+)? (ms|s)/);
      expect(await page.getByTestId('bench-sources').innerText()).toContain('bench/results/translation.json');
    },
  },
];

describe.each([
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
] as const)('public routes at %s size', (label, viewport) => {
  describe.each([
    ['en', 'gaia-en'],
    ['es', 'gaia-es'],
  ] as const)('in %s', (lang, language) => {
    it.each(ROUTES.map((r) => [r.name, r] as const))('%s renders cleanly', async (name, route) => {
      const { context, page, errors } = await openContext(browser, { viewport, language });
      try {
        const response = await page.goto(route.path(), { waitUntil: 'domcontentloaded' });
        expect(response?.status()).toBe(200);
        await route.ready(page);
        await page.waitForLoadState('networkidle');
        await screenshot(page, lang === 'en' ? `${name}-${label}` : `${name}-es-${label}`);
        expect(errors, 'console errors').toEqual([]);
        expect(await overflowingElements(page), 'elements wider than the viewport').toEqual([]);
        // The footer ends the page: no empty band below it, however short the content.
        const footer = await page.evaluate(() => {
          const f = document.querySelector('.site-footer');
          return f
            ? { bottom: f.getBoundingClientRect().bottom + window.scrollY, page: Math.max(document.documentElement.scrollHeight, window.innerHeight) }
            : null;
        });
        expect(footer, 'a footer').not.toBeNull();
        expect(footer!.bottom).toBeGreaterThanOrEqual(footer!.page - 1);
        if (lang === 'es') expect(await visibleEnglish(page, NAMES), 'English text in the Spanish UI').toEqual([]);
        await route.check?.(page, viewport);
        const violations = await seriousA11yViolations(page);
        expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
