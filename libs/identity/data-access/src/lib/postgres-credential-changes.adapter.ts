import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE, PgChannelListener } from '@gaia/shared/database';
import type { CredentialChange, CredentialChangesPort } from './credential-changes.port';

/** The channel the identity triggers notify (migration IdentityCredentialChangeNotify1795700000000). */
export const CREDENTIAL_CHANNEL = 'gaia_identity_changed';
/** Wait before listening again after the LISTEN connection was lost. */
export const RELISTEN_DELAY_MS = 500;

/**
 * `CredentialChangesPort` on one dedicated LISTEN connection. While it is down (not yet connected, lost) it
 * reports `watching = false` and, once back, a `lost` change: whoever caches starts again from Postgres.
 */
@Injectable()
export class PostgresCredentialChanges implements CredentialChangesPort, OnModuleInit, OnModuleDestroy {
  private readonly listeners: Array<(c: CredentialChange) => void> = [];
  private readonly listener: PgChannelListener;

  constructor(@Inject(DATA_SOURCE) ds: DataSource) {
    this.listener = new PgChannelListener({
      url: (ds.options as { url?: string }).url,
      channel: CREDENTIAL_CHANNEL,
      applicationName: 'gaia-identity-changes',
      relistenDelayMs: RELISTEN_DELAY_MS,
      logger: new Logger('CredentialChanges'),
      pauses: 'API key caching',
      onNotification: (payload) => {
        const [kind, id] = payload.split(':', 2);
        if ((kind === 'key' || kind === 'user') && id) this.emit({ kind, id });
      },
      onMissed: () => this.emit({ kind: 'lost' }),
    });
  }

  get watching(): boolean {
    return this.listener.watching;
  }

  subscribe(onChange: (c: CredentialChange) => void): void {
    this.listeners.push(onChange);
  }

  onModuleInit(): Promise<void> {
    return this.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  start(): Promise<void> {
    return this.listener.start();
  }

  stop(): Promise<void> {
    return this.listener.stop();
  }

  private emit(c: CredentialChange): void {
    for (const l of this.listeners) l(c);
  }
}
