import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trackCspViolations } from '../../support/csp';
import { trackConsoleErrors } from '../../support/page-checks';

export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
export const DESKTOP = { width: 1366, height: 900 };
export const MOBILE = { width: 390, height: 844 };

const here = dirname(fileURLToPath(import.meta.url));
export const SCREENSHOT_DIR = resolve(here, '../../screenshots');
/** Committed screenshots of each state: JPEG keeps the set small enough to review in git. */
const SCREENSHOT_JPEG_QUALITY = 70;
export const FIXTURES = resolve(here, '../fixtures');

/** The platform under test (the harness sets it, e.g. http://127.0.0.1:8080). */
export function baseUrl(): string {
  const url = process.env.GAIA_E2E_BASE_URL;
  if (!url) throw new Error('GAIA_E2E_BASE_URL is not set: point it at the running platform that serves the web app.');
  return url.replace(/\/+$/, '');
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
}

export interface TrackedPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions of the page. */
  pageErrors: string[];
  /** Console errors (failed resources included) and uncaught exceptions of every page of the context. */
  errors: string[];
}

/** A fresh browser profile (own cookies) with English stored as the language, so no language modal. */
export async function openContext(browser: Browser, viewport = DESKTOP, language: 'gaia-en' | 'gaia-es' = 'gaia-en'): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl() });
  await context.addInitScript((value) => {
    if (!window.localStorage.getItem('preferredLanguage')) window.localStorage.setItem('preferredLanguage', value);
  }, language);
  await trackCspViolations(context);
  const errors = trackConsoleErrors(context);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  return { context, page, pageErrors, errors };
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
