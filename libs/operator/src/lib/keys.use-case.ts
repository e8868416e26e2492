import { Inject, Injectable } from '@nestjs/common';
import { API_KEY_REPOSITORY, type ApiKeyRepositoryPort } from '@gaia/identity/data-access';
import { DomainError } from '@gaia/shared/kernel';

/** Highest daily request limit an operator may give one key. */
export const MAX_KEY_RATE_LIMIT = 10_000_000;

/** `gaia keys rate-limit <prefix> N`: a key's daily request limit (the gateway reads it on every call). */
@Injectable()
export class OperatorKeysUseCase {
  constructor(@Inject(API_KEY_REPOSITORY) private readonly keys: ApiKeyRepositoryPort) {}

  async setRateLimit(prefix: string, limit: string): Promise<{ prefix: string; name: string; rate_limit: number }> {
    const n = Number(limit);
    if (!/^\d+$/.test(limit) || n > MAX_KEY_RATE_LIMIT)
      throw DomainError.invalid(`The rate limit must be a whole number from 0 to ${MAX_KEY_RATE_LIMIT}.`, 'invalid_rate_limit');
    const key = await this.keys.setRateLimit(prefix.replace(/^gaia_/, ''), n);
    if (!key) throw DomainError.notFound(`No API key with prefix ${prefix}.`, 'key_not_found');
    return { prefix: key.prefix, name: key.name, rate_limit: key.rateLimit };
  }
}
