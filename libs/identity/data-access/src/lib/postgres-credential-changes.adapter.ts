import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';
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
  private readonly logger = new Logger('CredentialChanges');
  private readonly listeners: Array<(c: CredentialChange) => void> = [];
  private client: Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  watching = false;

  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  subscribe(onChange: (c: CredentialChange) => void): void {
    this.listeners.push(onChange);
  }

  onModuleInit(): Promise<void> {
    return this.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  async start(): Promise<void> {
    const url = (this.ds.options as { url?: string }).url;
    this.retry = null;
    if (!url || this.stopped) return;
    const c = new Client({ connectionString: url, application_name: 'gaia-identity-changes' });
    const lost = (why: string) => {
      if (this.client !== c) return;
      this.watching = false;
      this.client = null;
      this.emit({ kind: 'lost' });
      void c.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn(`LISTEN ${CREDENTIAL_CHANNEL} lost (${why}); API key caching paused until it is back`);
      this.retry = setTimeout(() => void this.start(), RELISTEN_DELAY_MS);
      this.retry.unref();
    };
    c.on('notification', (n) => {
      const [kind, id] = (n.payload ?? '').split(':', 2);
      if ((kind === 'key' || kind === 'user') && id) this.emit({ kind, id });
    });
    c.on('error', (e) => lost(e.message));
    c.on('end', () => lost('connection ended'));
    try {
      await c.connect();
      this.client = c;
      await c.query(`LISTEN ${CREDENTIAL_CHANNEL}`);
      if (this.stopped) return this.stop();
      this.emit({ kind: 'lost' }); // anything cached before now was not watched
      this.watching = true;
    } catch (e) {
      lost((e as Error).message);
      if (!this.client && !this.retry && !this.stopped) {
        this.retry = setTimeout(() => void this.start(), RELISTEN_DELAY_MS);
        this.retry.unref();
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watching = false;
    if (this.retry) clearTimeout(this.retry);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }

  private emit(c: CredentialChange): void {
    for (const l of this.listeners) l(c);
  }
}
