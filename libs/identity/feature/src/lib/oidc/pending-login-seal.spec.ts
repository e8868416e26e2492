import { openPendingLogin, pendingLoginKey, sealPendingLogin } from './pending-login-seal';

describe('pending OIDC sign-in seal', () => {
  const secrets = { codeVerifier: 'v'.repeat(43), nonce: 'n'.repeat(43) };

  it('opens with the same state and server secret only', () => {
    const sealed = sealPendingLogin(secrets, 'state-1', 'server-secret');
    expect(sealed).not.toContain(secrets.codeVerifier);
    expect(sealed).not.toContain(secrets.nonce);
    expect(openPendingLogin(sealed, 'state-1', 'server-secret')).toEqual(secrets);
    expect(openPendingLogin(sealed, 'state-2', 'server-secret')).toBeNull();
    expect(openPendingLogin(sealed, 'state-1', 'other-secret')).toBeNull();
  });

  it('refuses a tampered or truncated seal', () => {
    const sealed = Buffer.from(sealPendingLogin(secrets, 'state-1', ''), 'base64url');
    sealed[sealed.length - 1] ^= 1;
    expect(openPendingLogin(sealed.toString('base64url'), 'state-1', '')).toBeNull();
    expect(openPendingLogin('AAAA', 'state-1', '')).toBeNull();
  });

  it('keys a pending sign-in by a hash of its state', () => {
    expect(pendingLoginKey('state-1')).not.toContain('state-1');
    expect(pendingLoginKey('state-1')).toBe(pendingLoginKey('state-1'));
    expect(pendingLoginKey('state-1')).not.toBe(pendingLoginKey('state-2'));
  });
});
