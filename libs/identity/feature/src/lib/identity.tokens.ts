/** Hashes and verifies passwords (argon2id). */
export const PASSWORD_HASHER = Symbol('PASSWORD_HASHER');
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** Shared fixed-window counters (Postgres; every replica sees the same counts). */
export const RATE_LIMITER = Symbol('RATE_LIMITER');
export interface RateLimitDecision {
  allowed: boolean;
  count: number;
  limit: number;
  /** Seconds until the window resets. */
  retryAfterSeconds: number;
}
export interface RateLimiter {
  hit(bucket: string, limit: number, windowSeconds: number): Promise<RateLimitDecision>;
  /** The current window's count without adding a hit (allowed = still under the limit). */
  peek(bucket: string, limit: number, windowSeconds: number): Promise<RateLimitDecision>;
}

/** Options of the identity module (all optional; tests shorten them). */
export const IDENTITY_OPTIONS = Symbol('IDENTITY_OPTIONS');
export interface IdentityOptions {
  /** Session lifetime. Default 30 days. */
  sessionTtlMs: number;
  /** argon2id memory in KiB (≥ 19456) and passes (≥ 2). */
  argon2MemoryKiB: number;
  argon2TimeCost: number;
  /** Default daily request limit of a user API key (spec §9: 1,000). */
  defaultKeyRateLimit: number;
  /** How long an email verification link works. Default 24 hours. */
  emailTokenTtlMs: number;
}

export const DEFAULT_IDENTITY_OPTIONS: IdentityOptions = {
  sessionTtlMs: 30 * 24 * 3600 * 1000,
  argon2MemoryKiB: 19456,
  argon2TimeCost: 2,
  defaultKeyRateLimit: 1000,
  emailTokenTtlMs: 24 * 3600 * 1000,
};
