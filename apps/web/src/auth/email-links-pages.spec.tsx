import { fireEvent, screen } from '@testing-library/react';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserDto } from '../api/types';
import { routeFetch, user } from '../test/api-server';
import { renderAt } from '../test/render';
import { AcceptInvitationPage } from './accept-invitation-page';
import { VerifyEmailPage } from './verify-email-page';

/** The gateway's wire format for the session, POST /api/auth/verify-email and POST /api/team/invitations/accept. */
let server: Server;
let restore: () => void;
let me: UserDto | null;
const calls: Array<{ path: string; body: unknown }> = [];

beforeEach(async () => {
  me = null;
  calls.length = 0;
  server = createServer(async (req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    let raw = '';
    for await (const c of req) raw += c;
    if (req.url === '/api/auth/session') return json(200, { user: me });
    const body = raw ? (JSON.parse(raw) as { token?: string }) : {};
    calls.push({ path: req.url ?? '', body });
    if (req.url === '/api/auth/verify-email') {
      return body.token === 'good' ? json(200, { verified: true, email: 'luis@example.org' }) : json(400, { error: 'This verification link is invalid, expired or already used.' });
    }
    if (req.url === '/api/auth/verify-email/resend') return json(202, { success: true });
    if (req.url === '/api/team/invitations/accept') {
      if (!me?.emailVerified) return json(403, { error: 'Please confirm your email address before accepting an invitation.' });
      return body.token === 'good'
        ? json(200, { id: 'm1', name: 'Luis', email: 'luis@example.org', role: 'Editor', status: 'active', addedAt: '2026-11-24T00:00:00.000Z' })
        : json(404, { error: 'This invitation link is invalid, expired or already used.' });
    }
    return json(404, { error: 'Not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  restore = routeFetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterEach(async () => {
  restore();
  await new Promise((r) => server.close(r));
});

describe('VerifyEmailPage', () => {
  it('uses the token of the link once and confirms the address', async () => {
    renderAt(<VerifyEmailPage />, { path: '/verify-email?token=good', route: '/verify-email' });
    expect(await screen.findByText('Thank you: luis@example.org is confirmed.')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/auth/verify-email')).toEqual([{ path: '/api/auth/verify-email', body: { token: 'good' } }]);
  });

  it('explains an invalid or used link', async () => {
    renderAt(<VerifyEmailPage />, { path: '/verify-email?token=used', route: '/verify-email' });
    expect((await screen.findByRole('alert')).textContent).toMatch(/invalid, expired or already used/);
  });
});

describe('AcceptInvitationPage', () => {
  it('asks a visitor to sign in first', async () => {
    renderAt(<AcceptInvitationPage />, { path: '/invitations/accept?token=good', route: '/invitations/accept' });
    expect(await screen.findByText(/Sign in, or create an account, with the email address the invitation was sent to/)).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('asks an unverified user to confirm the email, with a way to get a new link', async () => {
    me = user({ email: 'luis@example.org', emailVerified: false });
    renderAt(<AcceptInvitationPage />, { path: '/invitations/accept?token=good', route: '/invitations/accept' });
    fireEvent.click(await screen.findByRole('button', { name: 'Send a new link' }));
    expect(await screen.findByText('Sent. Check your inbox.')).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual(['/api/auth/verify-email/resend']);
  });

  it('accepts for a verified user', async () => {
    me = user({ email: 'luis@example.org', emailVerified: true });
    renderAt(<AcceptInvitationPage />, { path: '/invitations/accept?token=good', route: '/invitations/accept' });
    fireEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText(/Invitation accepted/)).toBeTruthy();
    expect(calls).toEqual([{ path: '/api/team/invitations/accept', body: { token: 'good' } }]);
  });

  it('explains a used link', async () => {
    me = user({ email: 'luis@example.org', emailVerified: true });
    renderAt(<AcceptInvitationPage />, { path: '/invitations/accept?token=used', route: '/invitations/accept' });
    fireEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This invitation link is invalid, expired or already used.');
  });
});
