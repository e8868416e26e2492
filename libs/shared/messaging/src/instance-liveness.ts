import { Logger } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { Client } from 'pg';

/** First key of the two-key advisory locks that mark live Gaia instances (ASCII "GA"). */
export const LIVENESS_LOCK_NAMESPACE = 0x4741;
const MAX_KEY = 2 ** 31 - 1;
const KEY_ATTEMPTS = 16;
const RECONNECT_MS = 1000;

/**
 * SQL (a scalar subquery) for the set of live instance keys of the current database: an instance is live
 * while its session holds its advisory lock. A process that dies, even by SIGKILL, loses its connection
 * and Postgres drops the lock at once, so whatever it leased can be taken over without waiting for a lease.
 */
export const LIVE_INSTANCE_KEYS_SQL = `(SELECT l.objid::bigint FROM pg_locks l
   WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = ${LIVENESS_LOCK_NAMESPACE}
     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))`;

/** Who leases rows on behalf of this process; `key` is null when liveness is unavailable (leases then only expire). */
export interface InstanceIdentity {
  readonly key: number | null;
}

/**
 * This process's liveness: one dedicated session holding `pg_advisory_lock(namespace, key)` for as long
 * as the process lives. Leases (jobs, outbox deliveries) record the key; a lease whose key is not live is
 * free at once. Losing the session (a database restart) re-takes the same key as soon as it can.
 */
export class InstanceLiveness implements InstanceIdentity {
  private readonly logger = new Logger('InstanceLiveness');
  private client?: Client;
  private stopped = false;
  private retry?: NodeJS.Timeout;
  private held: number | null = null;

  constructor(private readonly url: string | undefined) {}

  get key(): number | null {
    return this.held;
  }

  async start(): Promise<void> {
    if (!this.url) return;
    try {
      await this.connect();
    } catch (e) {
      this.logger.warn(`liveness lock unavailable, leases will only expire: ${(e as Error).message}`);
      this.scheduleReconnect();
    }
  }

  private async connect(): Promise<void> {
    const c = new Client({ connectionString: this.url, application_name: 'gaia-liveness' });
    c.on('error', (e) => {
      this.logger.warn(`liveness session lost (${e.message}); re-taking it`);
      if (this.client === c) this.client = undefined;
      this.scheduleReconnect();
    });
    await c.connect();
    try {
      const key = await this.lock(c);
      if (this.stopped) throw new Error('stopped');
      this.client = c;
      this.held = key;
    } catch (e) {
      await c.end().catch(() => undefined);
      throw e;
    }
  }

  /** The same key again after a reconnect (so this instance's leases stay its own); a fresh unused one at first. */
  private async lock(c: Client): Promise<number> {
    const candidates = this.held !== null ? [this.held] : Array.from({ length: KEY_ATTEMPTS }, () => randomInt(1, MAX_KEY));
    for (const key of candidates) {
      const r = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS ok', [LIVENESS_LOCK_NAMESPACE, key]);
      if (r.rows[0]?.ok) return key;
    }
    throw new Error('no liveness key available');
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.stopped || this.client) return;
      this.connect().catch(() => this.scheduleReconnect());
    }, RECONNECT_MS);
    this.retry.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const c = this.client;
    this.client = undefined;
    this.held = null;
    await c?.end().catch(() => undefined);
  }
}
