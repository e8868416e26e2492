import type { Browser, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DESKTOP, openTrackedContext, SCREENSHOT_DIR, SCREENSHOT_JPEG_QUALITY, type TrackedPage } from '../../support/browser-common';
import { trackCspViolations } from '../../support/csp';

export { CHROMIUM_FLAGS, DESKTOP, MOBILE, SCREENSHOT_DIR, baseUrl, launchBrowser, type TrackedPage } from '../../support/browser-common';

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURES = resolve(here, '../fixtures');

/** A fresh browser profile (own cookies) with English stored as the language, so no language modal. */
export function openContext(browser: Browser, viewport = DESKTOP, language: 'gaia-en' | 'gaia-es' = 'gaia-en'): Promise<TrackedPage> {
  return openTrackedContext(browser, { viewport, language });
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name}.jpg`);
  // A full-page capture of a scrolled page would paint the sticky header mid-page.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage, type: 'jpeg', quality: SCREENSHOT_JPEG_QUALITY });
  return file;
}

/** A unique address per run, so the suite can run again against the same platform. */
export function uniqueEmail(who: string): string {
  return `${who}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@e2e.gaia.test`;
}

export { seriousA11yViolations, type AxeViolation } from '../../support/a11y';
export { trackCspViolations };
