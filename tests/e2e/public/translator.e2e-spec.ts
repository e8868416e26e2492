import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, findPublicAgent, launchBrowser, MOBILE, openContext, screenshot } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('a first-time visitor in Spanish', () => {
  it('picks Español, opens /models and translates with a public agent, seeing the streamed result and response time', async () => {
    const agent = await findPublicAgent();
    const { context, page, errors } = await openContext(browser, { viewport: DESKTOP, language: null });
    try {
      await page.goto('/');
      const dialog = page.getByRole('dialog', { name: 'Select Your Language' });
      await dialog.waitFor();
      await screenshot(page, 'language-modal-desktop');
      await dialog.getByRole('button', { name: 'Español' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => window.localStorage.getItem('preferredLanguage'))).toBe('gaia-es');
      expect(await page.getAttribute('html', 'lang')).toBe('es');

      await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Agentes' }).click();
      await page.waitForURL('**/models');
      await page.getByRole('heading', { name: 'Últimos agentes' }).waitFor();

      await page.getByLabel('Par de idiomas').selectOption(agent.id);
      const source = page.getByPlaceholder('Escribe hasta 50 palabras para traducir...');
      await source.fill('Allinllachu kashanki');
      await expect.poll(() => page.getByText('2/50 palabras').count()).toBe(1);

      const translateButton = page.getByRole('button', { name: 'Traducir', exact: true });
      await translateButton.click();
      await page.getByText('Traducción completada').waitFor();

      const output = (await page.getByTestId('translation-output').innerText()).trim();
      expect(output.length).toBeGreaterThan(0);
      expect(output).not.toMatch(/^Error:/);
      const status = await page.getByTestId('translation-status').innerText();
      // A meaningful precision at its magnitude ("6 ms", "42 ms", "1,42 s"), never "0.00 s".
      expect(status).toMatch(/Tiempo de respuesta: \d+(,\d{1,2})? (ms|s)\b/);
      expect(status).not.toMatch(/0[.,]00 ?s/);
      await expect.poll(() => translateButton.isEnabled()).toBe(true);
      await screenshot(page, 'models-translated-es-desktop');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps the choice on the next visit and shows no language modal', async () => {
    const { context, page } = await openContext(browser, { viewport: MOBILE, language: 'gaia-es' });
    try {
      await page.goto('/pricing');
      await page.getByText('Más popular').waitFor();
      expect(await page.getByRole('dialog', { name: 'Select Your Language' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
