import { hash, verify, type Algorithm } from '@node-rs/argon2';
import type { PasswordHasher } from '../identity.tokens';

/** argon2id (OWASP minimum: 19 MiB, 2 passes, 1 lane). */
export class Argon2PasswordHasher implements PasswordHasher {
  constructor(
    private readonly memoryCost = 19456,
    private readonly timeCost = 2,
  ) {
    if (memoryCost < 19456 || timeCost < 2) throw new Error('argon2id parameters below the OWASP minimum (19456 KiB, 2 passes)');
  }

  hash(password: string): Promise<string> {
    return hash(password, { algorithm: 2 as Algorithm, memoryCost: this.memoryCost, timeCost: this.timeCost, parallelism: 1 });
  }

  async verify(hashed: string, password: string): Promise<boolean> {
    try {
      return await verify(hashed, password);
    } catch {
      return false;
    }
  }
}
