import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, DESKTOP, screenshot, trackCspViolations } from './support/browser';
import { startOwnPlatform, type OwnPlatform } from './support/own-platform';
import { startTestIdp, type TestIdp } from '../../api/support/test-idp';

/**
 * Popup sign-in (OpenID Connect, code + PKCE, through the gateway) in Chromium: a real oidc-provider as the
 * identity provider and a platform of its own configured with it (the shared platform has no issuer).
 */
const CLIENT = { id: 'gaia-web', secret: 'a-client-secret-for-e2e-only' };

let idp: TestIdp;
let platform: OwnPlatform;
let browser: Browser;

beforeAll(async () => {
  idp = await startTestIdp();
  platform = await startOwnPlatform({
    OIDC_ISSUER_URL: idp.issuer,
    OIDC_CLIENT_ID: CLIENT.id,
    OIDC_CLIENT_SECRET: CLIENT.secret,
    OIDC_PROVIDER_NAME: 'Test IdP',
  });
  idp.serve({ id: CLIENT.id, secret: CLIENT.secret, redirectUri: `${platform.url}/api/auth/oidc/callback` });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await idp?.close();
});

/** A generous deadline for the whole popup round trip (provider, callback, postMessage) on a loaded machine. */
const POPUP_DEADLINE_MS = 90_000;

describe('popup sign-in with the identity provider', () => {
  it('a signed-out visitor of /dashboard signs in through the popup and lands on the dashboard', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, baseURL: platform.url });
    await trackCspViolations(context);
    await context.addInitScript(() => window.localStorage.setItem('preferredLanguage', 'gaia-en'));
    try {
      const page = await context.newPage();
      await page.goto('/dashboard');
      const dialog = page.getByRole('dialog', { name: 'Sign in to Gaia' });
      await dialog.waitFor();
      await screenshot(page, 'dashboard-sign-in-oidc-desktop', false);
      const [popup] = await Promise.all([context.waitForEvent('page'), dialog.getByRole('button', { name: 'Continue with Test IdP' }).click()]);
      // The provider finishes the interaction by itself: the popup may already be gone by now (no race either way).
      if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: POPUP_DEADLINE_MS });
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.getByRole('heading', { name: 'Welcome, Inti Mamani' }).waitFor();
      expect(await dialog.count()).toBe(0);
      const me = await page.evaluate(async () => (await fetch('/api/auth/me')).json());
      expect(me.user.email).toBe('inti.mamani@idp.test');
    } finally {
      await context.close();
    }
  });
});
