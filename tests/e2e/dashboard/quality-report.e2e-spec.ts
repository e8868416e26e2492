import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, DESKTOP, launchBrowser, openContext, screenshot, uniqueEmail, type TrackedPage } from './support/browser';
import { QUALITY_CORPUS as CORPUS } from '../../api/support/quality-corpus';

/**
 * Issue 14 in the browser: the owner sees the quality report of the built agent on its page, and the test translator
 * shows the calibrated confidence badge and the "Why this translation?" panel with examples from the agent's data.
 */
describe('quality report and "Why this translation?"', () => {
  let browser: Browser;
  let owner: TrackedPage;
  let agentId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await openContext(browser, DESKTOP);
    // The session of the browser profile: signed up and the agent uploaded through the API with its cookies.
    const api = owner.context.request;
    const signUp = await api.post(`${baseUrl()}/api/auth/signup`, {
      data: { email: uniqueEmail('quality'), password: 'e2e-Password-123', fullName: 'Rosa Huamán' },
    });
    expect(signUp.status()).toBe(201);
    const csrf = (await owner.context.cookies()).find((c) => c.name === 'gaia_csrf')?.value ?? '';
    const upload = await api.post(`${baseUrl()}/api/documents/process/`, {
      headers: { 'X-CSRF-Token': csrf },
      multipart: {
        src_lang: 'Spanish',
        tgt_lang: 'Quechua',
        custom_prompt: 'Quality report (e2e)',
        files: { name: 'corpus.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(CORPUS)) },
      },
    });
    expect(upload.status()).toBe(200);
    agentId = ((await upload.json()) as { model_id: string }).model_id;
  });
  afterAll(async () => {
    await owner?.context.close();
    await browser?.close();
  });

  it('the owner sees the report once the build ends: chrF, BLEU, margin, held-out pairs and the size category', async () => {
    const { page } = owner;
    await expect
      // the report is measured after the agent is ready (docs/adr/0006): wait for both
      .poll(
        async () => (await (await owner.context.request.get(`${baseUrl()}/api/agents/${agentId}`)).json()) as { processing_status: string; quality: unknown },
        { timeout: 180_000, interval: 500 },
      )
      .toMatchObject({ processing_status: 'COMPLETED', quality: expect.objectContaining({ version: expect.any(String) }) });
    await page.goto(`/dashboard/${encodeURIComponent(agentId)}`);
    const card = page.getByTestId('quality-card');
    await card.waitFor({ timeout: 60_000 });
    await card.getByRole('heading', { name: 'Quality report' }).waitFor();
    const chrf = Number((await card.getByTestId('quality-chrf').innerText()).trim());
    expect(chrf).toBeGreaterThan(0.3);
    expect(chrf).toBeLessThanOrEqual(1);
    expect(Number((await card.getByTestId('quality-bleu').innerText()).trim())).toBeGreaterThan(0);
    expect(await card.getByTestId('quality-held-out').innerText()).toBe('20');
    expect(await card.getByTestId('quality-category').innerText()).toBe('Tiny (under 10K pairs)');
    await screenshot(page, 'dashboard-agent-quality-desktop');
    expect(owner.errors).toEqual([]);
  });

  it("the test translator shows the confidence badge and the why-panel lists examples from the agent's data", async () => {
    const { page } = owner;
    const translator = page.getByTestId('test-translator');
    await translator.getByLabel('Text in Spanish').fill('mi perro negro');
    await translator.getByRole('button', { name: 'Translate', exact: true }).click();
    await translator.getByText('Translation complete').waitFor({ timeout: 60_000 });
    const badge = translator.getByTestId('confidence-badge');
    expect(await badge.innerText()).toMatch(/^Confidence \d{1,3}%$/);
    await translator.getByText('Why this translation?').click();
    const examples = translator.getByTestId('why-examples').locator('li');
    await examples.first().waitFor();
    const corpus = CORPUS.map((p) => `${p.es} → ${p.qu}`);
    const shown = await examples.evaluateAll((items) =>
      items.map((li) => `${li.querySelector('.why-panel__source')?.textContent ?? ''} → ${li.querySelector('.why-panel__target')?.textContent ?? ''}`),
    );
    expect(shown.length).toBeGreaterThan(0);
    for (const s of shown) expect(corpus).toContain(s);
    await screenshot(page, 'dashboard-agent-why-panel-desktop');
    expect(owner.errors).toEqual([]);
  });
});
