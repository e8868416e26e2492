import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';

/**
 * What every browser test checks on every page it shows, besides its own assertions:
 *  - no console message of level error (Chromium logs every failed resource, a 401 included, as one) and no
 *    uncaught exception, on any page of the context;
 *  - no element wider than the viewport (cut off or making the page scroll sideways);
 *  - in the Spanish UI, no visible English text (names and user content are allowed by the caller).
 */

/** Console errors and uncaught exceptions of every page of a context (popups included). */
export function trackConsoleErrors(context: BrowserContext): string[] {
  const errors: string[] = [];
  // The blank page a tab starts on runs the test's init scripts too (e.g. a localStorage preset it may not read).
  const ofTheSite = (page: Page) => !page.url().startsWith('about:');
  const watch = (page: Page) => {
    page.on('console', (msg) => {
      if (msg.type() === 'error' && ofTheSite(page)) errors.push(`${msg.text()} @ ${msg.location()?.url ?? page.url()}`);
    });
    page.on('pageerror', (err) => {
      if (ofTheSite(page)) errors.push(`pageerror: ${err.message} @ ${page.url()}`);
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  return errors;
}

/** A visible element that sticks out of the viewport horizontally, with where it is. */
export interface Overflow {
  element: string;
  left: number;
  right: number;
  viewport: number;
}

/**
 * Visible elements that reach past the right edge of the viewport (or start left of it), unless an ancestor clips
 * or scrolls them (a code block's long line scrolls inside its box; a carousel's next slide is clipped). Elements
 * hidden on purpose (offscreen skip link, closed drawer, visually-hidden text) do not count.
 */
export async function overflowingElements(page: Page): Promise<Overflow[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const TOLERANCE_PX = 1;
    const clipsX = (el: Element) => {
      const s = getComputedStyle(el);
      return s.overflowX !== 'visible' || s.clipPath !== 'none' || (s.clip !== 'auto' && s.clip !== '');
    };
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      const testId = el.getAttribute('data-testid');
      return `${el.tagName.toLowerCase()}${id}${cls}${testId ? `[data-testid=${testId}]` : ''}`;
    };
    const out: { element: string; left: number; right: number; viewport: number }[] = [];
    const offenders = new Set<Element>();
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.right <= 0 || r.left >= vw) continue; // entirely offscreen on purpose (skip link, closed drawer)
      if (r.right <= vw + TOLERANCE_PX && r.left >= -TOLERANCE_PX) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      let clipped = false;
      for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
        if (clipsX(a)) {
          const ar = a.getBoundingClientRect();
          if (ar.right <= vw + TOLERANCE_PX && ar.left >= -TOLERANCE_PX) clipped = true;
          break;
        }
      }
      if (clipped) continue;
      // Report the outermost offender only (its children stick out with it).
      let inside = false;
      for (let a = el.parentElement; a; a = a.parentElement) if (offenders.has(a)) inside = true;
      offenders.add(el);
      if (inside) continue;
      out.push({ element: describe(el), left: Math.round(r.left), right: Math.round(r.right), viewport: vw });
    }
    return out;
  });
}

const here = dirname(fileURLToPath(import.meta.url));
const LOCALES = resolve(here, '../../../apps/web/src/i18n/locales');

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** Placeholders ({{name}}) become wildcards; the rest must match the visible text exactly. */
function pattern(text: string): RegExp {
  const escaped = text
    .split(/\{\{[^}]+\}\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+');
  return new RegExp(`^${escaped}$`);
}

let englishOnly: RegExp[] | null = null;
/** Texts of the English UI that the Spanish UI words differently (the ones that must not show in Spanish). */
function englishUiTexts(): RegExp[] {
  if (englishOnly) return englishOnly;
  const read = (lang: string) =>
    readdirSync(join(LOCALES, lang))
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => strings(JSON.parse(readFileSync(join(LOCALES, lang, f), 'utf8'))));
  const spanish = new Set(read('es'));
  // Short texts (e.g. "API", "Plan", "Editor") are the same in both languages: only whole sentences or phrases count.
  const MIN_WORDS = 2;
  englishOnly = [...new Set(read('en'))].filter((t) => !spanish.has(t) && t.trim().split(/\s+/).length >= MIN_WORDS).map(pattern);
  return englishOnly;
}

/** English function words that are not Spanish words: two of them in one text make it English. */
const ENGLISH_WORDS = new Set([
  'the',
  'and',
  'your',
  'you',
  'with',
  'this',
  'please',
  'are',
  'have',
  'been',
  'from',
  'will',
  'was',
  'were',
  'has',
  'that',
  'of',
  'to',
  'is',
  'for',
  'not',
  'it',
  'be',
  'an',
  'or',
  'at',
  'by',
  'on',
  'in',
]);
const MIN_ENGLISH_WORDS = 2;

/**
 * Visible texts of the page that are English: a text of the English UI that Spanish words differently, or a
 * text with two or more English function words (server messages, hard-coded strings). Code, inputs and the
 * texts in `allow` (names, user content) are skipped.
 */
export async function visibleEnglish(page: Page, allow: (string | RegExp)[] = []): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'CODE', 'PRE', 'KBD', 'SAMP', 'TEXTAREA', 'INPUT', 'SELECT', 'OPTION', 'SVG']);
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (!text || !/[a-z]/i.test(text)) continue;
      const el = n.parentElement;
      if (!el || el.closest('[translate="no"], [aria-hidden="true"]')) continue;
      let skipped = false;
      for (let a: Element | null = el; a; a = a.parentElement) {
        if (SKIP.has(a.tagName.toUpperCase())) {
          skipped = true;
          break;
        }
      }
      if (skipped) continue;
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || s.visibility === 'hidden' || s.display === 'none') continue;
      // Visually hidden text (screen-reader only) is read aloud in the page language too: keep it.
      out.push(text);
    }
    return out;
  });
  const ui = englishUiTexts();
  const allowed = (t: string) => allow.some((a) => (typeof a === 'string' ? t === a || t.includes(a) : a.test(t)));
  const english = (t: string) => {
    if (ui.some((re) => re.test(t))) return true;
    const words = new Set(t.toLowerCase().match(/[a-z']+/g) ?? []);
    return [...words].filter((w) => ENGLISH_WORDS.has(w)).length >= MIN_ENGLISH_WORDS;
  };
  return [...new Set(texts.filter((t) => english(t) && !allowed(t)))];
}
