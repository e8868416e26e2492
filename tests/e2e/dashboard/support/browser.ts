import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
export const DESKTOP = { width: 1366, height: 900 };
export const MOBILE = { width: 375, height: 812 };

const here = dirname(fileURLToPath(import.meta.url));
export const SCREENSHOT_DIR = resolve(here, '../../screenshots');
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
}

/** A fresh browser profile (own cookies) with English stored as the language, so no language modal. */
export async function openContext(browser: Browser, viewport = DESKTOP, language: 'gaia-en' | 'gaia-es' = 'gaia-en'): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl() });
  await context.addInitScript((value) => {
    if (!window.localStorage.getItem('preferredLanguage')) window.localStorage.setItem('preferredLanguage', value);
  }, language);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  return { context, page, pageErrors };
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name}.png`);
  // A full-page capture of a scrolled page would paint the sticky header mid-page.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage });
  return file;
}

/** A unique address per run, so the suite can run again against the same platform. */
export function uniqueEmail(who: string): string {
  return `${who}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@e2e.gaia.test`;
}

const require = createRequire(import.meta.url);
let axeSource: string | null = null;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string }[];
}

/** Runs axe-core in the page; returns the serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, html: n.html.slice(0, 200) })) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
