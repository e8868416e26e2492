import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@gaia/shared/kernel';
import { CREDENTIAL_CHANGES, type CredentialChange, type CredentialChangesPort, type UserRecord } from '@gaia/identity/data-access';
import { AccountsService } from '../accounts/accounts.service';
import { sha256 } from '../tokens.util';
import { ApiKeysService, type ApiKeyPrincipal } from './api-keys.service';

/** A cached key is read again from Postgres after this long even without a change notice (safety net). */
export const API_KEY_CACHE_TTL_MS = 60_000;
/** Keys cached per process at most (the oldest goes first). */
export const API_KEY_CACHE_MAX = 10_000;

export interface KeyCaller {
  key: ApiKeyPrincipal;
  /** The key's owner (null for the public translator key, or when the owner no longer exists). */
  user: UserRecord | null;
}

/**
 * `X-API-Key` → key and owner without a database round trip for a key seen before (issue #13). Cached by the
 * SHA-256 of the raw key (never the key itself). Every change of a key or user, on any replica and through any
 * code path, reaches each process through `CredentialChangesPort` (Postgres triggers + LISTEN/NOTIFY) within
 * milliseconds and drops the entry; while those notices cannot be heard nothing is served from the cache, so a
 * revoked key is refused as soon as its revocation commits.
 */
@Injectable()
export class ApiKeyAuthentication {
  private readonly entries = new Map<string, { caller: KeyCaller; at: number }>();
  /** Bumped by every change notice: a read that started before one is not cached. */
  private generation = 0;

  constructor(
    private readonly keys: ApiKeysService,
    private readonly accounts: AccountsService,
    @Inject(CREDENTIAL_CHANGES) private readonly changes: CredentialChangesPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    changes.subscribe((c) => this.onChange(c));
  }

  /** 401 for unknown or revoked keys (ApiKeysService.authenticate). */
  async authenticate(raw: string): Promise<KeyCaller> {
    const id = sha256(raw);
    const hit = this.entries.get(id);
    if (hit && this.changes.watching && this.clock.now().getTime() - hit.at < API_KEY_CACHE_TTL_MS) return hit.caller;
    if (hit) this.entries.delete(id);
    const generation = this.generation;
    const key = await this.keys.authenticate(raw);
    const user = key.userId ? await this.accounts.getUser(key.userId) : null;
    const caller = { key, user };
    if (this.changes.watching && generation === this.generation) {
      if (this.entries.size >= API_KEY_CACHE_MAX) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(id, { caller, at: this.clock.now().getTime() });
    }
    return caller;
  }

  /**
   * Revokes a key (`ApiKeysService.revoke`) and drops it from this process's cache at once: the notice that
   * drops it everywhere comes from Postgres' listener, which a loaded machine may run after the caller's next
   * request, and this replica must refuse that request (read-your-writes; other replicas within the notice's delay).
   */
  async revoke(userId: string, keyId: unknown): Promise<void> {
    await this.keys.revoke(userId, keyId);
    if (typeof keyId === 'string') this.onChange({ kind: 'key', id: keyId });
  }

  private onChange(c: CredentialChange): void {
    this.generation++;
    if (c.kind === 'lost') return this.entries.clear();
    for (const [id, e] of this.entries) {
      if (c.kind === 'key' ? e.caller.key.keyId === c.id : e.caller.key.userId === c.id) this.entries.delete(id);
    }
  }
}
