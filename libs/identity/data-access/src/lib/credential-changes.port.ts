/** What changed: an API key (revoked, new limit, deleted) or a user; `lost` = changes may have been missed. */
export type CredentialChange = { kind: 'key'; id: string } | { kind: 'user'; id: string } | { kind: 'lost' };

/**
 * Changes of API keys and users as every replica sees them (Postgres LISTEN/NOTIFY fed by triggers, so any
 * writer is covered). `watching` is false while changes cannot be heard: caches must not serve then.
 */
export interface CredentialChangesPort {
  subscribe(onChange: (c: CredentialChange) => void): void;
  readonly watching: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}
export const CREDENTIAL_CHANGES = Symbol('CREDENTIAL_CHANGES');
