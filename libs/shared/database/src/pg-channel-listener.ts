import type { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';

/** Payload prefix of the listener's own barrier notices (never passed to `onNotification`). */
const BARRIER_PREFIX = 'gaia-barrier:';

export interface PgChannelListenerOptions {
  /** Postgres connection string; none = never listens (stays not watching). */
  url: string | undefined;
  /** The NOTIFY channel (a plain identifier). */
  channel: string;
  /** `application_name` of the dedicated connection (seen in pg_stat_activity). */
  applicationName: string;
  /** Wait before listening again after the connection was lost. */
  relistenDelayMs: number;
  logger: Pick<Logger, 'warn'>;
  /** What pauses while the channel is not heard, for the warning ("agent caching"). */
  pauses: string;
  /** A notification's payload (empty payloads are skipped). */
  onNotification(payload: string): void;
  /** Changes may have been missed: the connection was lost, or has just started listening (nothing before it was heard). */
  onMissed(): void;
}

/**
 * One dedicated Postgres connection that LISTENs on a channel, listening again after `relistenDelayMs` when it is
 * lost. `watching` is true only while notifications can be heard: a cache that relies on them must not serve
 * otherwise, and drops everything on `onMissed`.
 */
export class PgChannelListener {
  private client: Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly barriers = new Map<string, () => void>();
  watching = false;

  constructor(private readonly o: PgChannelListenerOptions) {}

  async start(): Promise<void> {
    this.retry = null;
    if (!this.o.url || this.stopped) return;
    const c = new Client({ connectionString: this.o.url, application_name: this.o.applicationName });
    let down = false;
    const lost = (why: string) => {
      if (down) return;
      down = true;
      if (this.client === c) this.client = null;
      this.watching = false;
      this.o.onMissed();
      this.releaseBarriers();
      void c.end().catch(() => undefined);
      if (this.stopped) return;
      this.o.logger.warn(`LISTEN ${this.o.channel} lost (${why}); ${this.o.pauses} paused until it is back`);
      this.retry = setTimeout(() => void this.start(), this.o.relistenDelayMs);
      this.retry.unref();
    };
    c.on('notification', (n) => {
      if (!n.payload) return;
      if (n.payload.startsWith(BARRIER_PREFIX)) {
        const release = this.barriers.get(n.payload);
        this.barriers.delete(n.payload);
        release?.();
      } else this.o.onNotification(n.payload);
    });
    c.on('error', (e) => lost(e.message));
    c.on('end', () => lost('connection ended'));
    try {
      await c.connect();
      await c.query(`LISTEN ${this.o.channel}`);
      if (this.stopped) {
        down = true;
        await c.end().catch(() => undefined);
        return;
      }
      this.client = c;
      this.o.onMissed(); // anything cached before now was not heard
      this.watching = true;
    } catch (e) {
      lost((e as Error).message);
    }
  }

  /**
   * Resolves once every notice committed before this call has been handed to `onNotification`: Postgres delivers
   * notices in commit order, so hearing our own later notice back proves the earlier ones were heard. A writer
   * awaits it so that its own process never serves what it has just changed. Resolves at once while not
   * listening (a cache serves nothing then) and when the connection is lost (everything is dropped then).
   */
  async barrier(): Promise<void> {
    const c = this.client;
    if (!c || !this.watching) return;
    const payload = `${BARRIER_PREFIX}${randomUUID()}`;
    const heard = new Promise<void>((resolve) => this.barriers.set(payload, resolve));
    try {
      await c.query('SELECT pg_notify($1, $2)', [this.o.channel, payload]);
    } catch {
      this.barriers.delete(payload);
      return;
    }
    await heard;
  }

  private releaseBarriers(): void {
    const waiting = [...this.barriers.values()];
    this.barriers.clear();
    for (const release of waiting) release();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watching = false;
    this.releaseBarriers();
    if (this.retry) clearTimeout(this.retry);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }
}
