import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { UserDto } from '@gaia/contracts';
import { useRouteServer, user } from '../test/api-server';
import { renderAt } from '../test/render';
import { AcceptInvitationPage } from './accept-invitation-page';
import { VerifyEmailPage } from './verify-email-page';

/** The gateway's wire format for the session, POST /api/auth/verify-email and POST /api/team/invitations/accept. */
let me: UserDto | null;
const calls: Array<{ path: string; body: unknown }> = [];

beforeEach(() => {
  me = null;
  calls.length = 0;
});
useRouteServer(({ path, body }) => {
  if (path === '/api/auth/session') return [200, { user: me }];
  calls.push({ path, body });
  if (path === '/api/auth/verify-email') {
    return body['token'] === 'good'
      ? [200, { verified: true, email: 'luis@example.org' }]
      : [400, { error: 'This verification link is invalid, expired or already used.' }];
  }
  if (path === '/api/auth/verify-email/resend') return [202, { success: true }];
  if (path === '/api/team/invitations/accept') {
    if (!me?.emailVerified) return [403, { error: 'Please confirm your email address before accepting an invitation.' }];
    return body['token'] === 'good'
      ? [200, { id: 'm1', name: 'Luis', email: 'luis@example.org', role: 'Editor', status: 'active', addedAt: '2026-11-24T00:00:00.000Z' }]
      : [404, { error: 'This invitation link is invalid, expired or already used.' }];
  }
  return undefined;
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
