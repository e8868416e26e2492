import { newApiKey, parseApiKey, safeEqual, sha256 } from './tokens.util';
import { Argon2PasswordHasher } from './accounts/argon2-password-hasher.adapter';

describe('API key format', () => {
  it('is gaia_<12 hex>_<256-bit secret>, stored as the SHA-256 of the secret', () => {
    const k = newApiKey();
    expect(k.key).toMatch(/^gaia_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    const parsed = parseApiKey(k.key)!;
    expect(parsed.prefix).toBe(k.prefix);
    expect(Buffer.from(parsed.secret, 'base64url')).toHaveLength(32);
    expect(k.secretHash).toBe(sha256(parsed.secret));
    expect(k.secretHash).not.toContain(parsed.secret);
    expect(newApiKey().key).not.toBe(k.key);
  });

  it('rejects anything else', () => {
    for (const bad of ['', 'gaia_', 'gaia_xyz_abc', 'sk-123', `gaia_${'0'.repeat(12)}_short`, `GAIA_${'0'.repeat(12)}_${'a'.repeat(43)}`])
      expect(parseApiKey(bad)).toBeNull();
  });

  it('compares in constant time and only equal strings match', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('argon2id password hasher', () => {
  it('uses argon2id with at least 19 MiB and 2 passes, and verifies', async () => {
    const h = new Argon2PasswordHasher();
    const hash = await h.hash('ñandutí 2026');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await expect(h.verify(hash, 'ñandutí 2026')).resolves.toBe(true);
    await expect(h.verify(hash, 'nanduti 2026')).resolves.toBe(false);
    await expect(h.verify('not a hash', 'x')).resolves.toBe(false);
  });

  it('refuses parameters below the minimum', () => {
    expect(() => new Argon2PasswordHasher(4096, 2)).toThrow(/minimum/);
    expect(() => new Argon2PasswordHasher(19456, 1)).toThrow(/minimum/);
  });
});
