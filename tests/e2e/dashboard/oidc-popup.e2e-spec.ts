import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, DESKTOP, screenshot, trackCspViolations } from './support/browser';
import { startOwnPlatform, type OwnPlatform } from './support/own-platform';

/**
 * Popup sign-in (OpenID Connect, code + PKCE, through the gateway) in Chromium: a real oidc-provider as the
 * identity provider and a platform of its own configured with it (the shared platform has no issuer).
 */
const CLIENT = { id: 'gaia-web', secret: 'a-client-secret-for-e2e-only' };

let idp: http.Server;
let platform: OwnPlatform;
let browser: Browser;

beforeAll(async () => {
  idp = http.createServer();
  await new Promise<void>((r) => idp.listen(0, '127.0.0.1', () => r()));
  const issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  platform = await startOwnPlatform({ OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: CLIENT.id, OIDC_CLIENT_SECRET: CLIENT.secret, OIDC_PROVIDER_NAME: 'Test IdP' });
  const provider = new Provider(issuer, {
    clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${platform.url}/api/auth/oidc/callback`], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id, email: 'inti.mamani@idp.test', email_verified: true, name: 'Inti Mamani' }) }),
    cookies: { keys: ['e2e-cookie-key'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  });
  const callback = provider.callback();
  idp.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname.startsWith('/interaction/')) {
      // The person signs in at the provider as idp-user-1 and consents.
      void (async () => {
        const details = await provider.interactionDetails(req, res);
        const grant = new provider.Grant({ accountId: 'idp-user-1', clientId: String(details.params['client_id']) });
        grant.addOIDCScope('openid email profile');
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: 'idp-user-1' }, consent: { grantId } }, { mergeWithLastSubmission: false });
      })().catch((e: unknown) => {
        res.statusCode = 500;
        res.end(String(e));
      });
      return;
    }
    callback(req, res);
  });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  idp?.closeAllConnections();
  await new Promise((r) => idp?.close(r));
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
