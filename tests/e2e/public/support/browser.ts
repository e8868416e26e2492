import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
export const MOBILE = { width: 375, height: 812 };

const here = dirname(fileURLToPath(import.meta.url));
export const SCREENSHOT_DIR = resolve(here, '../../screenshots');

/** The platform under test; the harness sets it (e.g. http://127.0.0.1:8080). */
export function baseUrl(): string {
  const url = process.env.GAIA_E2E_BASE_URL;
  if (!url) throw new Error('GAIA_E2E_BASE_URL is not set: point it at the running platform that serves the web app.');
  return url.replace(/\/+$/, '');
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
}

export interface OpenOptions {
  viewport?: { width: number; height: number };
  /** preferredLanguage to store before the app starts; null leaves it unset (first visit). */
  language?: 'gaia-en' | 'gaia-es' | null;
}

export interface TrackedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far (expected ones filtered out). */
  errors: string[];
}

/**
 * Chromium logs every non-2xx resource as a console error. The only one a visitor's page causes by design
 * is the anonymous GET /api/auth/me → 401 of the auth context; anything else counts.
 */
function isExpected(msg: ConsoleMessage): boolean {
  const url = msg.location()?.url ?? '';
  return /\/api\/auth\/me$/.test(url) && /401/.test(msg.text());
}

export async function openContext(browser: Browser, opts: OpenOptions = {}): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport: opts.viewport ?? DESKTOP, baseURL: baseUrl() });
  const language = opts.language === undefined ? 'gaia-en' : opts.language;
  if (language) {
    await context.addInitScript((value) => {
      if (!window.localStorage.getItem('preferredLanguage')) window.localStorage.setItem('preferredLanguage', value);
    }, language);
  }
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !isExpected(msg)) errors.push(`${msg.text()} @ ${msg.location()?.url ?? ''}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return { context, page, errors };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
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

/** One public agent to translate with: GAIA_E2E_PUBLIC_AGENT_ID, else the newest public agent. */
export async function findPublicAgent(): Promise<{ id: string; src_lang: string; tgt_lang: string }> {
  const res = await fetch(`${baseUrl()}/api/agents/public`);
  if (!res.ok) throw new Error(`GET /api/agents/public answered ${res.status}`);
  const { agents } = (await res.json()) as { agents: { id: string; src_lang: string; tgt_lang: string }[] };
  const wanted = process.env.GAIA_E2E_PUBLIC_AGENT_ID;
  const agent = wanted ? agents.find((a) => a.id === wanted) : agents[0];
  if (!agent) throw new Error('The platform under test has no public agent: the e2e harness must seed one (GAIA_E2E_PUBLIC_AGENT_ID).');
  return agent;
}
