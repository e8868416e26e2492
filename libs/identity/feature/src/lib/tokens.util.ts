import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** URL-safe random string with `bytes` bytes of entropy. */
export const randomSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * API keys look like `gaia_<prefix>_<secret>`: prefix = 12 hex chars (48 bits, the visible id, unique),
 * secret = 32 random bytes base64url (256 bits). Only sha256(secret) is stored.
 */
export function newApiKey(): { key: string; prefix: string; secretHash: string } {
  const prefix = randomBytes(6).toString('hex');
  const secret = randomSecret(32);
  return { key: `gaia_${prefix}_${secret}`, prefix, secretHash: sha256(secret) };
}

export function parseApiKey(key: string): { prefix: string; secret: string } | null {
  const m = /^gaia_([0-9a-f]{12})_([A-Za-z0-9_-]{20,})$/.exec(key.trim());
  return m ? { prefix: m[1], secret: m[2] } : null;
}
