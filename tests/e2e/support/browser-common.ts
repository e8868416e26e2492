import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trackCspViolations } from './csp';
import { trackConsoleErrors } from './page-checks';

/** What the browser suites (public, dashboard) share: Chromium, the viewports, the platform under test, a tracked profile. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const DESKTOP = { width: 1366, height: 900 };
export const MOBILE = { width: 390, height: 844 };

const here = dirname(fileURLToPath(import.meta.url));
export const SCREENSHOT_DIR = resolve(here, '../screenshots');
/** Committed screenshots of each state: JPEG keeps the set small enough to review in git. */
export const SCREENSHOT_JPEG_QUALITY = 70;

/** The platform under test; the harness sets it (e.g. http://127.0.0.1:8080). */
export function baseUrl(): string {
  const url = process.env.GAIA_E2E_BASE_URL;
  if (!url) throw new Error('GAIA_E2E_BASE_URL is not set: point it at the running platform that serves the web app.');
  return url.replace(/\/+$/, '');
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
}

export interface OpenOptions {
  viewport?: { width: number; height: number };
  /** preferredLanguage to store before the app starts; null leaves it unset (first visit). */
  language?: 'gaia-en' | 'gaia-es' | null;
  /** A touch screen (taps instead of mouse hovers). */
  hasTouch?: boolean;
}

export interface TrackedPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions of the page. */
  pageErrors: string[];
  /** Console errors (failed resources included) and uncaught exceptions of every page of the context. */
  errors: string[];
}

/** A fresh browser profile (own cookies) on the platform under test, English stored as the language unless told. */
export async function openTrackedContext(browser: Browser, opts: OpenOptions = {}): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport: opts.viewport ?? DESKTOP, baseURL: baseUrl(), hasTouch: opts.hasTouch ?? false });
  const language = opts.language === undefined ? 'gaia-en' : opts.language;
  if (language) {
    await context.addInitScript((value) => {
      if (!window.localStorage.getItem('preferredLanguage')) window.localStorage.setItem('preferredLanguage', value);
    }, language);
  }
  await trackCspViolations(context);
  // Chromium logs every failed resource (a 401 included) as a console error: none is expected, signed out or in.
  const errors = trackConsoleErrors(context);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  return { context, page, pageErrors, errors };
}
