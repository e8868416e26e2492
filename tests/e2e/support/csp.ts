import type { BrowserContext, ConsoleMessage } from 'playwright-core';
import { afterEach, expect } from 'vitest';

/**
 * Content-Security-Policy violations seen by the browser suites. Chromium reports each one as a console
 * error ("Refused to … because it violates the following Content Security Policy directive"), and the
 * page fires `securitypolicyviolation`; both are collected for every page of a tracked context (popups
 * included), and `failOnCspViolations()` makes the test that caused them fail.
 */
const violations: string[] = [];
const BINDING = '__gaiaCspViolation';

const isCspMessage = (msg: ConsoleMessage) => /Content Security Policy/i.test(msg.text());

export async function trackCspViolations(context: BrowserContext): Promise<void> {
  context.on('console', (msg) => {
    if (isCspMessage(msg)) violations.push(`${msg.text()} @ ${msg.location()?.url ?? ''}`);
  });
  await context.exposeBinding(BINDING, ({ page }, v: string) => {
    violations.push(`${v} @ ${page.url()}`);
  });
  await context.addInitScript((binding) => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as Record<string, (v: string) => void>)[binding];
      report?.(`securitypolicyviolation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`);
    });
  }, BINDING);
}

/** Registers an afterEach that fails the test when any tracked page reported a CSP violation. */
export function failOnCspViolations(): void {
  afterEach(() => {
    const seen = violations.splice(0);
    expect(seen, 'Content-Security-Policy violations').toEqual([]);
  });
}
