import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, MOBILE, openContext, screenshot } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the mobile menu at 375px', () => {
  it('opens from the toggle, lists the links and Sign In, and closes when a link is chosen', async () => {
    const { context, page, errors } = await openContext(browser, { viewport: MOBILE });
    try {
      await page.goto('/pricing');
      await page.getByText('Most Popular').waitFor();
      // The desktop navigation is hidden at this width.
      expect(await page.getByRole('navigation', { name: 'Main navigation' }).isVisible()).toBe(false);

      // Scrolled down, so that the navigation below has to bring the next page back to the top.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      const toggle = page.getByRole('button', { name: 'Open menu' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      const menu = page.getByRole('navigation', { name: 'Mobile navigation' });
      await menu.waitFor();
      expect(await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
      expect(await menu.getByRole('link', { name: 'Datasets' }).isVisible()).toBe(true);
      expect(await menu.getByRole('button', { name: 'Sign In' }).isVisible()).toBe(true);
      expect(await menu.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
      await screenshot(page, 'mobile-menu-open');

      await menu.getByRole('link', { name: 'Agents' }).click();
      await page.waitForURL('**/models');
      await menu.waitFor({ state: 'detached' });
      expect(await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
      // Every navigation starts at the top of the page.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);

      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Mobile navigation' }).getByRole('button', { name: 'Sign In' }).click();
      // The sign-in dialog (src/auth) opens.
      await page.getByRole('dialog').first().waitFor();
      expect(await page.getByRole('navigation', { name: 'Mobile navigation' }).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
