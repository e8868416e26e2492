import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { API_KEY_REPOSITORY, SETTING_REPOSITORY, type ApiKeyRecord, type ApiKeyRepositoryPort, type SettingRepositoryPort } from '@gaia/identity/data-access';
import { CLOCK, DomainError, newId, type Clock } from '@gaia/shared/kernel';
import { IDENTITY_OPTIONS, type IdentityOptions } from '../identity.tokens';
import { newApiKey, parseApiKey, safeEqual, sha256 } from '../tokens.util';

export const INVALID_API_KEY = 'Invalid API key.';
export const REVOKED_API_KEY = 'This API key has been revoked.';
const PUBLIC_KEY_SETTING = 'public_translator_key';

export interface ApiKeyPrincipal {
  keyId: string;
  kind: 'user' | 'public';
  userId: string | null;
  rateLimit: number;
}

/** API keys: created once (the raw key is answered once), stored as prefix + SHA-256 of the secret. */
@Injectable()
export class ApiKeysService implements OnModuleInit {
  private readonly logger = new Logger('ApiKeys');
  private publicKey: string | null = null;

  constructor(
    @Inject(API_KEY_REPOSITORY) private readonly keys: ApiKeyRepositoryPort,
    @Inject(SETTING_REPOSITORY) private readonly settings: SettingRepositoryPort,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDENTITY_OPTIONS) private readonly options: IdentityOptions,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.ensurePublicKey();
  }

  async create(userId: string, rawName: unknown): Promise<{ apiKey: string; record: ApiKeyRecord }> {
    const name = typeof rawName === 'string' ? rawName.trim() : '';
    if (!name) throw DomainError.invalid('Please enter a name for the API key.', 'name_required');
    if (name.length > 100) throw DomainError.invalid('The key name is too long (maximum 100 characters).', 'name_too_long');
    const k = newApiKey();
    const record = await this.keys.insert({
      id: newId(),
      userId,
      kind: 'user',
      name,
      prefix: k.prefix,
      secretHash: k.secretHash,
      rateLimit: this.options.defaultKeyRateLimit,
      now: this.clock.now(),
    });
    return { apiKey: k.key, record };
  }

  list(userId: string, page?: { limit: number; afterId: string | null }): Promise<ApiKeyRecord[]> {
    return this.keys.listByUser(userId, page);
  }

  /** A key of this user (revoked or not); 404 for anyone else's. */
  async getOwned(userId: string, keyId: unknown): Promise<ApiKeyRecord> {
    const k = typeof keyId === 'string' ? await this.keys.findById(keyId) : null;
    if (!k || k.userId !== userId || k.kind !== 'user') throw DomainError.notFound('API key not found.', 'api_key_not_found');
    return k;
  }

  async revoke(userId: string, keyId: unknown): Promise<void> {
    if (typeof keyId !== 'string' || !keyId) throw DomainError.invalid('key_id is required.', 'key_id_required');
    if (!(await this.keys.revoke(userId, keyId, this.clock.now()))) throw DomainError.notFound('API key not found.', 'api_key_not_found');
  }

  /** Resolves an `X-API-Key`; 401 for unknown or revoked keys. */
  async authenticate(raw: string): Promise<ApiKeyPrincipal> {
    const parsed = parseApiKey(raw);
    if (!parsed) throw DomainError.unauthorized(INVALID_API_KEY, 'invalid_api_key');
    const k = await this.keys.findByPrefix(parsed.prefix);
    if (!k || !safeEqual(k.secretHash, sha256(parsed.secret))) throw DomainError.unauthorized(INVALID_API_KEY, 'invalid_api_key');
    if (k.revokedAt) throw DomainError.unauthorized(REVOKED_API_KEY, 'revoked_api_key');
    return { keyId: k.id, kind: k.kind, userId: k.userId, rateLimit: k.rateLimit };
  }

  /**
   * The public translator's key (low privilege: public agents only, per-IP limits), created at first
   * start; the raw key is kept as a setting because the web page shows it to everyone anyway.
   */
  async ensurePublicKey(): Promise<string> {
    if (this.publicKey) return this.publicKey;
    const existing = await this.settings.get(PUBLIC_KEY_SETTING);
    if (existing) return (this.publicKey = existing);
    const k = newApiKey();
    const stored = await this.settings.getOrCreate(PUBLIC_KEY_SETTING, k.key);
    if (stored === k.key) {
      await this.keys.insert({
        id: newId(),
        userId: null,
        kind: 'public',
        name: 'Public translator',
        prefix: k.prefix,
        secretHash: k.secretHash,
        rateLimit: 0,
        now: this.clock.now(),
      });
      this.logger.log(`public translator key created (prefix ${k.prefix})`);
    }
    return (this.publicKey = stored);
  }
}
