import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, MOBILE, openContext, screenshot } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the landing page', () => {
  it('sticks the navigation-tabs strip at 64px and tracks the section in view', async () => {
    const { context, page, errors } = await openContext(browser, { viewport: DESKTOP });
    try {
      await page.goto('/');
      const tabs = page.locator('#navigation-tabs');
      await tabs.waitFor();
      expect(await tabs.getAttribute('class')).not.toContain('is-sticky');

      await page.evaluate(() => document.getElementById('performance')!.scrollIntoView());
      await expect.poll(() => tabs.getAttribute('class')).toContain('is-sticky');
      expect(Math.round((await tabs.boundingBox())!.y)).toBe(64);
      await expect.poll(() => tabs.getByRole('button', { name: 'Performance' }).getAttribute('aria-current')).toBe('true');

      await tabs.getByRole('button', { name: 'Build' }).click();
      await expect.poll(() => tabs.getByRole('button', { name: 'Build' }).getAttribute('aria-current')).toBe('true');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows measured performance figures, not typed-in claims (no "1-3 s", no "99.9%")', async () => {
    const { context, page, errors } = await openContext(browser, { viewport: DESKTOP });
    try {
      await page.goto('/');
      const metrics = page.locator('dl.metrics');
      await metrics.getByText('median response time (measured, built-in engine)').waitFor();
      const text = await metrics.innerText();
      expect(text).not.toContain('1-3 s');
      expect(text).not.toContain('99.9%');
      expect(text).toMatch(/\d+ ms|\d[\d.,]* s/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('opens a post from the carousel with a full page navigation to /post/{id}', async () => {
    const { context, page, errors } = await openContext(browser, { viewport: DESKTOP });
    try {
      await page.goto('/');
      await page.getByRole('button', { name: 'Go to post 2' }).click();
      const read = page.locator('.carousel__slide.is-active').getByRole('link', { name: 'Read' });
      const href = await read.getAttribute('href');
      expect(href).toBe('/post/500k-parallel-sentences-milestone');
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      await read.click();
      await page.waitForURL(`**${href}`);
      await page.getByRole('heading', { level: 1, name: '500,000 public parallel sentences and counting' }).waitFor();
      // A full navigation loads a new document, so the marker set on the old one is gone.
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBeUndefined();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('fits the globe on a phone (390 px) and shows the language nearest to a tap', async () => {
    const { context, page, errors } = await openContext(browser, { viewport: MOBILE, hasTouch: true });
    try {
      await page.goto('/');
      const canvas = page.locator('.globe-wrap canvas');
      await canvas.waitFor();
      const box = (await canvas.boundingBox())!;
      const wrap = (await page.locator('.globe-wrap').boundingBox())!;
      expect(box.width).toBeLessThanOrEqual(wrap.width + 1);
      expect(box.x).toBeGreaterThanOrEqual(wrap.x - 1);
      const details = page.getByTestId('globe-details');
      expect(await details.locator('h3').count()).toBe(0);
      await canvas.scrollIntoViewIfNeeded();
      const inView = (await canvas.boundingBox())!;
      // The middle of the canvas is on the globe: a tap there selects the nearest language.
      await page.touchscreen.tap(inView.x + inView.width / 2, inView.y + inView.height / 2);
      await details.locator('h3').waitFor();
      expect((await details.locator('h3').innerText()).trim().length).toBeGreaterThan(0);
      await screenshot(page, 'landing-globe-tapped-mobile');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("opens 'Demo Coming Soon' from the call to action and closes it", async () => {
    const { context, page } = await openContext(browser, { viewport: DESKTOP });
    try {
      await page.goto('/');
      await page.locator('#build').getByRole('button', { name: 'Watch Demo' }).click();
      const dialog = page.getByRole('dialog', { name: 'Demo Coming Soon' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });
});
