import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** The secrets of a pending OIDC sign-in: sent to the provider (nonce) and at the code exchange (PKCE verifier). */
export interface PendingLoginSecrets {
  codeVerifier: string;
  nonce: string;
}

const CIPHER = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_INFO = 'gaia oidc pending login v1';

/** What a pending sign-in is stored under: the SHA-256 of its state (the state itself is never at rest). */
export function pendingLoginKey(state: string): string {
  return createHash('sha256').update(state).digest('base64url');
}

/**
 * Key of one pending sign-in: HKDF-SHA256 of its state (only in the browser's URL, never stored) salted with the
 * server secret (SESSION_SECRET of the validated config, when set): the stored row alone opens nothing.
 */
function sealKey(state: string, serverSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', state, serverSecret, KEY_INFO, KEY_BYTES));
}

/** AES-256-GCM of the secrets (base64url of iv ‖ tag ‖ ciphertext). */
export function sealPendingLogin(secrets: PendingLoginSecrets, state: string, serverSecret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, sealKey(state, serverSecret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The secrets sealed for `state`, or null when the seal does not open with it (tampered, or another state). */
export function openPendingLogin(sealed: string, state: string, serverSecret: string): PendingLoginSecrets | null {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv(CIPHER, sealKey(state, serverSecret), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    const parsed = JSON.parse(plain) as Partial<PendingLoginSecrets>;
    return typeof parsed.codeVerifier === 'string' && typeof parsed.nonce === 'string' ? { codeVerifier: parsed.codeVerifier, nonce: parsed.nonce } : null;
  } catch {
    return null;
  }
}
