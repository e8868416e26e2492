import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, findPublicAgent, launchBrowser, MOBILE, openContext, screenshot, seriousA11yViolations } from './support/browser';

/** Every public route renders its content without console errors and with no serious/critical axe findings. */
let browser: Browser;
let agentId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  agentId = 'none';
});
afterAll(async () => {
  await browser?.close();
});

interface RouteCase {
  name: string;
  path: () => string;
  /** Text that proves the page rendered its content (English). */
  ready: (page: Page) => Promise<unknown>;
}

const heading = (page: Page, text: string | RegExp) => page.getByRole('heading', { level: 1, name: text }).waitFor();

const ROUTES: RouteCase[] = [
  {
    name: 'landing',
    path: () => '/',
    ready: async (page) => {
      await heading(page, 'Give every language a voice in the digital world');
      await page.locator('#navigation-tabs').waitFor();
      // The lazy globe chunk has replaced its 'Loading...' placeholder (canvas, or the list without WebGL).
      await page.locator('.globe-wrap canvas, .globe-wrap .language-chips').first().waitFor();
    },
  },
  { name: 'pricing', path: () => '/pricing', ready: (page) => page.getByText('Most Popular').waitFor() },
  { name: 'privacy', path: () => '/privacy', ready: (page) => page.getByText('Last updated: January 1, 2025').waitFor() },
  {
    name: 'post',
    path: () => '/post/human-level-translation-no-resource-languages',
    ready: (page) => page.getByRole('heading', { name: 'More Posts' }).waitFor(),
  },
  { name: 'post-not-found', path: () => '/post/no-such-post', ready: (page) => heading(page, 'Post not found') },
  { name: 'datasets', path: () => '/datasets', ready: (page) => page.getByLabel('Public agent').waitFor() },
  { name: 'models', path: () => '/models', ready: (page) => page.getByRole('heading', { name: 'Latest Agents' }).waitFor() },
  { name: 'documentation', path: () => '/documentation', ready: (page) => heading(page, 'API documentation') },
];

describe.each([
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
] as const)('REAL public routes at %s width', (label, viewport) => {
  it.each(ROUTES.map((r) => [r.name, r] as const))('%s renders cleanly', async (name, route) => {
    const { context, page, errors } = await openContext(browser, { viewport });
    try {
      const response = await page.goto(route.path(), { waitUntil: 'domcontentloaded' });
      expect(response?.status()).toBe(200);
      await route.ready(page);
      await page.waitForLoadState('networkidle');
      await screenshot(page, `${name}-${label}`);
      expect(errors).toEqual([]);
      const violations = await seriousA11yViolations(page);
      expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
      // Nothing overflows the viewport horizontally.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });
});
