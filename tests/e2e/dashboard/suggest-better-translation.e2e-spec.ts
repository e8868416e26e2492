import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, DESKTOP, FIXTURES, launchBrowser, openContext, screenshot, uniqueEmail, type TrackedPage } from './support/browser';

/**
 * Issue 14 in the browser, against the running platform: the owner suggests a better translation in the test
 * translator and the very next answer is the correction (listed on the owner page, with undo); the owner adds a
 * glossary term and the next answer uses it.
 */
const PROCESSING_TIMEOUT_MS = 180_000;
const POLL_MS = 500;

let browser: Browser;
let tab: TrackedPage;
let agentId = '';

async function csrfOf(context: BrowserContext): Promise<string> {
  return (await context.cookies(baseUrl())).find((c) => c.name === 'gaia_csrf')?.value ?? '';
}

/** Signs a new owner up and builds the fixture agent through the API of the browser's own session. */
async function ownerWithAgent(context: BrowserContext): Promise<string> {
  const signUp = await context.request.post('/api/auth/signup', {
    data: { email: uniqueEmail('suggest'), password: 'e2e-Password-123', fullName: 'Rosa Huaman' },
  });
  expect(signUp.status()).toBe(201);
  const up = await context.request.post('/api/documents/process/', {
    headers: { 'X-CSRF-Token': await csrfOf(context) },
    multipart: {
      src_lang: 'quechua',
      tgt_lang: 'spanish',
      custom_prompt: 'Quechua greetings (e2e corrections)',
      files: { name: 'quechua-spanish.json', mimeType: 'application/json', buffer: readFileSync(join(FIXTURES, 'quechua-spanish.json')) },
    },
  });
  expect(up.status()).toBe(200);
  const id = ((await up.json()) as { model_id: string }).model_id;
  // processing is followed on the agent record until it settles (polled: the condition, not a fixed wait)
  const deadline = Date.now() + PROCESSING_TIMEOUT_MS;
  for (;;) {
    const status = ((await (await context.request.get(`/api/agents/${id}`)).json()) as { processing_status: string | null }).processing_status;
    if (status === 'COMPLETED') break;
    if (status === 'FAILED' || Date.now() > deadline) throw new Error(`agent ${id} did not complete (${status})`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return id;
}

async function translateInTester(text: string): Promise<string> {
  const translator = tab.page.getByTestId('test-translator');
  await translator.getByLabel('Text in Quechua').fill(text);
  await translator.getByRole('button', { name: 'Translate', exact: true }).click();
  await translator.getByText('Translation complete').waitFor({ timeout: 60_000 });
  return (await translator.getByTestId('translation-output').innerText()).trim();
}

beforeAll(async () => {
  browser = await launchBrowser();
  tab = await openContext(browser, DESKTOP);
  agentId = await ownerWithAgent(tab.context);
  await tab.page.goto(`/dashboard/${agentId}`);
  await tab.page.getByTestId('test-translator').waitFor({ timeout: 60_000 });
});
afterAll(async () => {
  await tab?.context.close();
  await browser?.close();
});

describe('owner feedback in the browser', () => {
  it('suggests a better translation and the next answer shows it; the owner page lists it and undo restores the answer', async () => {
    const { page } = tab;
    const first = await translateInTester('Sulpayki');
    expect(first).not.toBe('Muchísimas gracias');
    const translator = page.getByTestId('test-translator');
    await translator.getByRole('button', { name: 'Suggest a better translation' }).click();
    await translator.getByLabel('Better translation').fill('Muchísimas gracias');
    await translator.getByRole('button', { name: 'Save correction' }).click();
    await translator.getByTestId('correction-saved').waitFor();

    expect(await translateInTester('Sulpayki')).toBe('Muchísimas gracias');
    const panel = page.getByTestId('corrections-panel');
    await expect.poll(() => panel.getByTestId('correction-after').first().innerText()).toBe('Muchísimas gracias');
    expect(await panel.getByTestId('correction-item').first().innerText()).toContain('Sulpayki');
    await screenshot(page, 'dashboard-agent-correction-desktop');

    await panel.getByRole('button', { name: 'Undo' }).first().click();
    await panel.getByText(/No corrections yet/).waitFor();
    expect(await translateInTester('Sulpayki')).toBe(first);
    expect(tab.pageErrors).toEqual([]);
  });

  it('adds a glossary term and the next answer uses it', async () => {
    const { page } = tab;
    const panel = page.getByTestId('glossary-panel');
    await panel.getByLabel('Term').fill('Sutiymi');
    await panel.getByLabel('Required translation').fill('Me llamo');
    await panel.getByRole('button', { name: 'Add term' }).click();
    await expect.poll(() => panel.getByTestId('glossary-term').first().innerText()).toContain('Sutiymi → Me llamo');
    expect(await translateInTester('Sutiymi Ana')).toContain('Me llamo');
    await screenshot(page, 'dashboard-agent-glossary-desktop');
    expect(tab.pageErrors).toEqual([]);
  });
});
