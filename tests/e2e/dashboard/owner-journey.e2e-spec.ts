import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailboxLink } from './support/mailbox';
import { overflowingElements, trackConsoleErrors, visibleEnglish } from '../support/page-checks';
import {
  baseUrl,
  DESKTOP,
  FIXTURES,
  launchBrowser,
  MOBILE,
  openContext,
  screenshot,
  seriousA11yViolations,
  trackCspViolations,
  uniqueEmail,
  type TrackedPage,
} from './support/browser';

/**
 * The signed-in journey against the running platform, in order: sign up → build an agent from a JSON file →
 * progress reaches COMPLETED → test translation → API key shown once → the public API with it → usage on the
 * API tab; invite an editor → the editor signs in (sent to sign in and back), confirms the email and accepts the
 * invitation through the links of the platform's mailbox folder, sees and edits the agent, cannot
 * delete it; public → on /models for a visitor; delete → gone everywhere. Screenshots of every screen.
 */
const PASSWORD = 'e2e-Password-123';
const description = 'Cusco Quechua greetings and daily life (e2e)';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * What every screen of the journey must be, besides its own checks: no console error (failed resources
 * included), nothing wider than the viewport, and in Spanish no visible English (user content allowed).
 */
async function expectClean(page: Page, errors: string[], spanish: { allow: (string | RegExp)[] } | null = null) {
  expect(errors, `console errors: ${errors.join(' | ')}`).toEqual([]);
  const overflow = await overflowingElements(page);
  expect(overflow, `elements wider than the viewport: ${JSON.stringify(overflow)}`).toEqual([]);
  if (spanish) {
    const english = await visibleEnglish(page, spanish.allow);
    expect(english, `English text in the Spanish UI: ${english.join(' | ')}`).toEqual([]);
  }
}

/**
 * Takes out of `errors` the console errors of a request the test makes fail on purpose (a wrong password, a
 * forbidden call, a deleted agent): Chromium logs each failed resource; expecting it keeps every other one an error.
 */
function expectedFailure(errors: string[], path: RegExp): void {
  const kept = errors.filter((e) => !path.test(e));
  errors.splice(0, errors.length, ...kept);
}

async function signUpInDialog(page: Page, who: { name: string; email: string }) {
  const dialog = page.getByRole('dialog', { name: 'Sign in to Gaia' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'New to Gaia? Create an account' }).click();
  const signUp = page.getByRole('dialog', { name: 'Create your Gaia account' });
  await signUp.getByLabel('Full name').fill(who.name);
  await signUp.getByLabel('Email').fill(who.email);
  await signUp.getByLabel('Password').fill(PASSWORD);
  await signUp.getByRole('button', { name: 'Create account' }).click();
}

async function openTab(page: Page, name: 'Dashboard' | 'Builder' | 'API' | 'Team' | 'Account') {
  const nav = page.getByRole('navigation', { name: 'Dashboard sections' });
  if (!(await nav.isVisible())) await page.getByRole('button', { name: 'Sections', exact: true }).click();
  await nav.getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

async function publicAgentIds(): Promise<string[]> {
  const res = await fetch(`${baseUrl()}/api/agents/public`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { agents: { id: string }[] }).agents.map((a) => a.id);
}

describe.each([
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
] as const)('owner journey at %s size', (size, viewport) => {
  const owner = { name: 'Ana Quispe', email: uniqueEmail(`owner-${size}`) };
  const editor = { name: 'Luis Mamani', email: uniqueEmail(`editor-${size}`) };
  /** User content and names that stay as typed in the Spanish UI. */
  const USER_CONTENT: (string | RegExp)[] = [
    owner.name,
    editor.name,
    owner.email,
    editor.email,
    description,
    'E2E server',
    'Use Cusco spelling.',
    'Standard',
    'Quechua',
    'Gaia',
    'API',
    'cURL',
    'Starter',
    'Enterprise',
  ];
  let ownerTab: TrackedPage;
  let editorTab: TrackedPage | null = null;
  let agentId = '';
  let apiKey = '';

  beforeAll(async () => {
    ownerTab = await openContext(browser, viewport);
  });
  afterAll(async () => {
    await editorTab?.context.close();
    await ownerTab?.context.close();
  });
  it('signs up from the landing page and lands on an empty dashboard', async () => {
    const { page } = ownerTab;
    await page.goto('/');
    if (size === 'mobile') {
      // On a phone the header's links and Sign In are in the menu.
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Mobile navigation' }).getByRole('button', { name: 'Sign In' }).click();
    } else await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
    await screenshot(page, `dashboard-sign-in-dialog-${size}`, false);

    // A wrong password first: a clear error, no sign-in.
    const dialog = page.getByRole('dialog', { name: 'Sign in to Gaia' });
    await dialog.getByLabel('Email').fill(owner.email);
    await dialog.getByLabel('Password').fill('not-the-password');
    await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('Invalid email or password.');

    await signUpInDialog(page, owner);
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: `Welcome, ${owner.name}` }).waitFor();
    await page.getByTestId('agents-empty').waitFor();
    expect(await page.getByTestId('stat-agents').innerText()).toContain('0');
    expect(await page.getByTestId('stat-cost').innerText()).toContain('$0.000000');
    // The plan's limit is on the dashboard: calls today of the Free plan's 10.
    await expect.poll(() => page.getByTestId('limit-calls').innerText()).toContain('0 of 10');
    expectedFailure(ownerTab.errors, /\/api\/auth\/signin/);
    await expectClean(page, ownerTab.errors);
  });

  it('builds an agent from a JSON file and watches processing reach COMPLETED', async () => {
    const { page } = ownerTab;
    await openTab(page, 'Builder');
    const submit = page.getByRole('button', { name: 'Create agent' });
    expect(await submit.isDisabled()).toBe(true);

    await page.getByLabel('Files *').setInputFiles([join(FIXTURES, 'quechua-spanish.json')]);
    expect(await submit.isEnabled()).toBe(true);
    await submit.click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('Please fill in all required fields');

    await page.getByLabel(/Source language/).fill('Quechua');
    await page.getByLabel(/Target language/).fill('Spanish');
    await page.getByLabel(/Agent description/).fill(description);
    await page.getByLabel(/Core memory/).fill('Use Cusco spelling.');
    await screenshot(page, `dashboard-builder-${size}`);
    // Progress arrives over Socket.IO (same origin, session cookie).
    const frames: string[] = [];
    page.on('websocket', (ws) => {
      if (ws.url().includes('/socket.io/')) ws.on('framereceived', (f) => frames.push(String(f.payload)));
    });
    await submit.click();

    const result = page.getByTestId('builder-result');
    await result.waitFor({ timeout: 180_000 });
    expect(await result.innerText()).toContain('Processed 1 of 1 files successfully!');
    expect(frames.some((f) => f.includes('"task_progress"'))).toBe(true);
    await screenshot(page, `dashboard-builder-completed-${size}`);
    await expectClean(page, ownerTab.errors);
    await result.getByRole('link', { name: 'Open the agent' }).click();
    await page.waitForURL(/\/dashboard\/[^/?]+$/);
    agentId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    expect(agentId).not.toBe('');
  });

  it('translates in the test translator on the agent page', async () => {
    const { page } = ownerTab;
    await page.getByTestId('pair-badge').waitFor();
    expect(await page.getByTestId('pair-badge').innerText()).toMatch(/Quechua[\s\S]*Spanish/);
    expect(await page.getByTestId('agent-description').innerText()).toBe(description);
    expect(await page.getByRole('switch').getAttribute('aria-checked')).toBe('false');
    const translator = page.getByTestId('test-translator');
    await translator.waitFor({ timeout: 60_000 });
    await translator.getByLabel('Text in Quechua').fill('Allinllachu kashanki');
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/translate/'),
      translator.getByRole('button', { name: 'Translate', exact: true }).click(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('text/event-stream');
    await translator.getByText('Translation complete').waitFor({ timeout: 60_000 });
    const output = (await translator.getByTestId('translation-output').innerText()).trim();
    expect(output.length).toBeGreaterThan(0);
    expect(output).not.toMatch(/^Error:/);
    await screenshot(page, `dashboard-agent-${size}`);
    await expectClean(page, ownerTab.errors);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download files' }).click()]);
    expect(download.suggestedFilename()).toBe(`model_${agentId}_files.zip`);
    expect(await download.failure()).toBeNull();
  });

  it('adds files with Edit Agent: other types are refused, JSON is processed while a progress card replaces the translator', async () => {
    const { page } = ownerTab;
    await page.getByRole('button', { name: 'Edit Agent' }).click();
    const files = page.getByLabel('Add files');
    await files.setInputFiles([
      { name: 'more-pairs.json', mimeType: 'application/json', buffer: readFileSync(join(FIXTURES, 'more-pairs.json')) },
      { name: 'notes.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n') },
    ]);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect
      .poll(() => page.getByTestId('agent-settings').getByRole('alert').textContent())
      .toBe('Invalid file types: notes.csv. Please upload JSON, PDF or TXT files only.');

    await page.getByRole('button', { name: 'Remove notes.csv' }).click();
    const [upload] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === '/api/update-model/'),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    expect(upload.method()).toBe('POST');
    expect(upload.headers()['content-type']).toContain('multipart/form-data');
    await page.getByText('Agent updated successfully! The page will reload in 15 seconds.').waitFor();
    // Processing is followed (progress card) until COMPLETED brings the translator back, without an error.
    await page.getByTestId('test-translator').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('processing-error').count()).toBe(0);
    await page.goto(`/dashboard/${encodeURIComponent(agentId)}`);
    await expect
      .poll(
        async () =>
          (
            await page
              .getByText(/sentence pairs/)
              .first()
              .innerText()
          ).match(/(\d+) sentence pairs/)?.[1],
      )
      .toBe('25');
    await expectClean(page, ownerTab.errors);
  });

  it('creates an API key shown once, calls the public API with it and sees the usage on the API tab', async () => {
    const { page } = ownerTab;
    await openTab(page, 'API');
    const create = page.getByRole('button', { name: 'Create key' });
    expect(await create.isDisabled()).toBe(true);
    await page.getByLabel('Key name').fill('E2E server');
    await create.click();
    const modal = page.getByRole('dialog', { name: 'Your new API key' });
    await modal.waitFor();
    apiKey = (await modal.getByTestId('new-api-key').innerText()).trim();
    expect(apiKey.length).toBeGreaterThan(16);
    await screenshot(page, `dashboard-api-new-key-${size}`, false);
    await page.keyboard.press('Escape');
    expect(await modal.isVisible()).toBe(true);
    await modal.getByRole('button', { name: "I've saved my key" }).click();
    await modal.waitFor({ state: 'detached' });
    expect(await page.locator('body').innerText()).not.toContain(apiKey);

    const res = await fetch(`${baseUrl()}/api/translate/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey },
      body: JSON.stringify({ text: 'Sulpayki', model_id: agentId, src_lang: 'quechua', tgt_lang: 'spanish', stream: false }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: { translation: string } };
    expect(body.success).toBe(true);
    expect(body.data.translation.trim().length).toBeGreaterThan(0);

    await expect
      .poll(
        async () => {
          await page.reload();
          expect(await page.getByRole('button', { name: 'Usage E2E server' }).getAttribute('aria-pressed')).toBe('true');
          const requests = page.getByTestId('usage-requests');
          await requests.waitFor();
          return Number((await requests.innerText()).replace(/\D/g, ''));
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('usage-cost').innerText()).toMatch(/^\$\d+\.\d{6}$/);
    expect(await page.getByTestId('curl-example').innerText()).toContain(`"model_id":"${agentId}"`);
    // The limit that binds on the Free plan is shown, once: calls today of 10, not the key's looser 1,000 a day.
    expect(await page.getByTestId('limit-calls').innerText()).toMatch(/[1-9]\d* of 10/);
    expect(await page.getByTestId('limit-key').count()).toBe(0);
    expect(await page.locator('main').innerText()).not.toContain('requests per day');
    await screenshot(page, `dashboard-api-${size}`);
    await expectClean(page, ownerTab.errors);
  });

  it('invites an editor from the Team tab', async () => {
    const { page } = ownerTab;
    await openTab(page, 'Team');
    await page.getByRole('button', { name: 'Add editor' }).click();
    await expect.poll(() => page.getByTestId('team-error').textContent()).toBe('Please fill in all fields.');
    await page.getByLabel('Name').fill(editor.name);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Add editor' }).click();
    await expect.poll(() => page.getByTestId('team-error').textContent()).toBe('Please enter a valid email address.');
    await page.getByLabel('Email').fill(editor.email);
    await page.getByRole('button', { name: 'Add editor' }).click();
    const member = page.getByTestId('team-member').filter({ hasText: editor.email });
    await member.waitFor();
    expect(await member.innerText()).toMatch(/Editor[\s\S]*Invited/);
    await page.getByTestId('team-error').waitFor({ state: 'detached' });
    await screenshot(page, `dashboard-team-${size}`);
    await expectClean(page, ownerTab.errors);
  });

  it('the editor is sent to sign in and back, confirms the email and accepts the invitation from the mailbox, sees and edits the agent, and cannot delete it or change its visibility', async () => {
    editorTab = await openContext(browser, viewport);
    const { page } = editorTab;
    await page.goto(`/dashboard/${encodeURIComponent(agentId)}`);
    await page.waitForURL((url) => url.pathname === '/');
    await signUpInDialog(page, editor);
    await page.waitForURL((url) => url.pathname === `/dashboard/${agentId}`);
    // A pending invitation grants nothing: the agent is not found (its 404 is expected), and the dashboard asks to
    // confirm the address first.
    await page.getByRole('heading', { name: 'Agent not found' }).waitFor();
    await page.getByTestId('email-verification-notice').waitFor();
    expectedFailure(editorTab.errors, new RegExp(`404 .*/api/agents/${agentId}$`));
    // The links arrive in the platform's embedded mailbox (DATA_DIR/mailbox): confirm, then accept.
    await page.goto(await mailboxLink(editor.email, 'Confirm your email address'));
    await expect.poll(() => page.getByTestId('verify-email-result').textContent()).toBe(`Thank you: ${editor.email} is confirmed.`);
    await page.goto(await mailboxLink(editor.email, 'invited you to edit translation agents'));
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await expect.poll(() => page.getByTestId('invitation-result').textContent()).toContain('Invitation accepted');
    await screenshot(page, `invitation-accepted-${size}`);
    await page.goto(`/dashboard/${encodeURIComponent(agentId)}`);
    await page.getByTestId('pair-badge').waitFor();
    await page.getByText('Shared with you (editor)').waitFor();
    expect(await page.getByRole('switch').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete agent' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Edit Agent' }).click();
    await page.getByLabel('Agent description *').fill(`${description} — reviewed by the editor`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(/Agent updated successfully!/).waitFor();
    expect(await page.getByTestId('agent-description').innerText()).toBe(`${description} — reviewed by the editor`);
    await screenshot(page, `dashboard-agent-editor-${size}`);

    const forbidden = await page.evaluate(async (id) => {
      const csrf =
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('gaia_csrf='))
          ?.split('=')[1] ?? '';
      const res = await fetch('/api/delete-model/', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': decodeURIComponent(csrf) },
        body: JSON.stringify({ model_id: id }),
      });
      return res.status;
    }, agentId);
    expect(forbidden).toBe(403);
    expectedFailure(editorTab.errors, /\/api\/delete-model\//);

    await page.goto('/dashboard');
    const row = page.getByTestId('agent-row').filter({ hasText: 'Shared with you' });
    await row.waitFor();
    expect(await row.getAttribute('href')).toBe(`/dashboard/${agentId}`);
    await expectClean(page, editorTab.errors);
  });

  it('makes the agent public: a signed-out visitor finds it on /models', async () => {
    const { page } = ownerTab;
    await page.goto(`/dashboard/${encodeURIComponent(agentId)}`);
    await page.getByTestId('agent-description').waitFor();
    expect(await page.getByTestId('agent-description').innerText()).toContain('reviewed by the editor');
    const toggle = page.getByRole('switch');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    expect(await page.getByTestId('visibility-label').innerText()).toBe('Public');
    expect(await publicAgentIds()).toContain(agentId);

    const visitor = await openContext(browser, viewport);
    try {
      await visitor.page.goto('/models');
      await visitor.page.locator(`option[value="${agentId}"]`).waitFor({ state: 'attached' });
      await visitor.page.goto(`/models/${encodeURIComponent(agentId)}`);
      await visitor.page.getByRole('heading', { name: /Quechua → Spanish/ }).waitFor();
      await expectClean(visitor.page, visitor.errors);
    } finally {
      await visitor.context.close();
    }
  });

  it('takes screenshots of every tab and the agent page at desktop and mobile width', async () => {
    const { page, context } = ownerTab;
    const shots: [string, string][] = [
      ['overview', '/dashboard'],
      ['builder', '/dashboard?tab=builder'],
      ['api', '/dashboard?tab=api'],
      ['team', '/dashboard?tab=team'],
      ['account', '/dashboard?tab=account'],
      ['agent', `/dashboard/${encodeURIComponent(agentId)}`],
    ];
    for (const [name, path] of shots) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      await screenshot(page, `dashboard-${name}-${size}`);
      if (size === 'desktop') {
        // The sidebar fills the page's height: from under the header to the end of the page, short or long (a drawer on phones).
        const side = await page.evaluate(() => ({
          top: document.querySelector('.dash-sidebar')!.getBoundingClientRect().top + window.scrollY,
          bottom: document.querySelector('.dash-sidebar')!.getBoundingClientRect().bottom + window.scrollY,
          header: document.querySelector('.site-header')!.getBoundingClientRect().height,
          page: document.documentElement.scrollHeight,
        }));
        expect(Math.abs(side.top - side.header), `${name}: sidebar top`).toBeLessThan(1);
        expect(Math.abs(side.bottom - side.page), `${name}: sidebar bottom`).toBeLessThan(1);
      }
      await expectClean(page, ownerTab.errors);
      expect(await seriousA11yViolations(page), `${name}: serious accessibility violations`).toEqual([]);
    }
    await page.goto('/dashboard?tab=account');
    expect(await page.getByTestId('account-type').innerText()).toBe('Standard');

    const mobile = await browser.newContext({ viewport: MOBILE, baseURL: baseUrl(), storageState: await context.storageState() });
    await trackCspViolations(mobile);
    const mobileErrors = trackConsoleErrors(mobile);
    try {
      const m = await mobile.newPage();
      for (const [name, path] of shots) {
        await m.goto(path);
        await m.getByRole('heading', { level: 1 }).first().waitFor();
        await m.waitForLoadState('networkidle').catch(() => undefined);
        await screenshot(m, `dashboard-${name}-mobile`);
        await expectClean(m, mobileErrors);
        expect(await seriousA11yViolations(m), `${name} (mobile): serious accessibility violations`).toEqual([]);
      }
      await m.goto('/dashboard');
      expect(await m.getByRole('navigation', { name: 'Dashboard sections' }).isVisible()).toBe(false);
      await m.getByRole('button', { name: 'Sections', exact: true }).click();
      await m.getByRole('navigation', { name: 'Dashboard sections' }).waitFor();
      await screenshot(m, 'dashboard-drawer-mobile', false);
      await m.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Team' }).click();
      await m.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
      // The drawer closes after a selection.
      await m.getByRole('navigation', { name: 'Dashboard sections' }).waitFor({ state: 'hidden' });
    } finally {
      await mobile.close();
    }

    const spanish = await browser.newContext({ viewport, baseURL: baseUrl(), storageState: await context.storageState() });
    await trackCspViolations(spanish);
    const spanishErrors = trackConsoleErrors(spanish);
    try {
      await spanish.addInitScript(() => window.localStorage.setItem('preferredLanguage', 'gaia-es'));
      const es = await spanish.newPage();
      await es.goto('/dashboard');
      await es.getByRole('heading', { name: `Te damos la bienvenida, ${owner.name}` }).waitFor();
      await es.getByRole('link', { name: 'Constructor', includeHidden: true }).first().waitFor({ state: 'attached' });
      // Every tab and the agent page in Spanish: no English left (names and the owner's own texts aside).
      for (const [name, path] of shots) {
        await es.goto(path);
        await es.getByRole('heading', { level: 1 }).first().waitFor();
        await es.waitForLoadState('networkidle').catch(() => undefined);
        await screenshot(es, `dashboard-${name}-es-${size}`);
        await expectClean(es, spanishErrors, { allow: [...USER_CONTENT, `${description} — reviewed by the editor`, agentId] });
      }
      await es.goto(`/dashboard/${encodeURIComponent(agentId)}`);
      await es.getByRole('heading', { name: 'Traductor de prueba' }).waitFor();
    } finally {
      await spanish.close();
    }
  });

  it('deletes the agent after confirmation: it is gone everywhere', async () => {
    const { page } = ownerTab;
    await page.goto(`/dashboard/${encodeURIComponent(agentId)}`);
    await page.getByRole('button', { name: 'Delete agent' }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.innerText()).toContain('Are you sure you want to delete this model? This action cannot be undone.');
    await screenshot(page, `dashboard-agent-delete-confirm-${size}`, false);
    await confirm.getByRole('button', { name: 'Delete agent' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByTestId('agents-empty').waitFor();

    const res = await fetch(`${baseUrl()}/api/agents/${encodeURIComponent(agentId)}`);
    expect(res.status).toBe(404);
    expect(await publicAgentIds()).not.toContain(agentId);

    await expectClean(page, ownerTab.errors);

    const { page: editorPage } = editorTab!;
    await editorPage.goto('/dashboard');
    await editorPage.getByTestId('agents-empty').waitFor();
    await editorPage.goto(`/dashboard/${encodeURIComponent(agentId)}`);
    await editorPage.getByText('Agent not found').waitFor();
    // The deleted agent answers 404 on purpose: that failed request is the one console error expected here.
    expectedFailure(editorTab!.errors, new RegExp(`/api/agents/${agentId}`));
    await expectClean(editorPage, editorTab!.errors);

    const visitor = await openContext(browser, viewport);
    try {
      await visitor.page.goto(`/models/${encodeURIComponent(agentId)}`);
      await visitor.page.getByText('The requested translation agent could not be found.').waitFor();
      expectedFailure(visitor.errors, new RegExp(`/api/agents/${agentId}`));
      await expectClean(visitor.page, visitor.errors);
    } finally {
      await visitor.context.close();
    }
    expect(ownerTab.pageErrors).toEqual([]);
    expect(editorTab!.pageErrors).toEqual([]);
  });
});
