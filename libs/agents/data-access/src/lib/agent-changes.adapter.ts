import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';

/** The channel the agent trigger notifies (migration AgentsChangeNotify1795700000001). */
export const AGENT_CHANGES_CHANNEL = 'gaia_agent_changed';
/** Wait before listening again after the LISTEN connection was lost. */
export const AGENT_RELISTEN_DELAY_MS = 500;

/** Changed agent ids as every replica hears them; `null` = changes may have been missed (drop everything). */
export interface AgentChangesPort {
  subscribe(onChange: (agentId: string | null) => void): void;
  /** False while changes cannot be heard: caches must not serve then. */
  readonly watching: boolean;
}
export const AGENT_CHANGES = Symbol('AGENT_CHANGES');

/** `AgentChangesPort` on one dedicated Postgres LISTEN connection (re-established when lost). */
@Injectable()
export class PostgresAgentChanges implements AgentChangesPort, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AgentChanges');
  private readonly listeners: Array<(agentId: string | null) => void> = [];
  private client: Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  watching = false;

  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  subscribe(onChange: (agentId: string | null) => void): void {
    this.listeners.push(onChange);
  }

  onModuleInit(): Promise<void> {
    return this.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.watching = false;
    if (this.retry) clearTimeout(this.retry);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }

  private async start(): Promise<void> {
    const url = (this.ds.options as { url?: string }).url;
    this.retry = null;
    if (!url || this.stopped) return;
    const c = new Client({ connectionString: url, application_name: 'gaia-agent-changes' });
    let down = false;
    const lost = (why: string) => {
      if (down) return;
      down = true;
      if (this.client === c) this.client = null;
      this.watching = false;
      this.emit(null);
      void c.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn(`LISTEN ${AGENT_CHANGES_CHANNEL} lost (${why}); agent caching paused until it is back`);
      this.retry = setTimeout(() => void this.start(), AGENT_RELISTEN_DELAY_MS);
      this.retry.unref();
    };
    c.on('notification', (n) => n.payload && this.emit(n.payload));
    c.on('error', (e) => lost(e.message));
    c.on('end', () => lost('connection ended'));
    try {
      await c.connect();
      await c.query(`LISTEN ${AGENT_CHANGES_CHANNEL}`);
      if (this.stopped) {
        down = true;
        await c.end().catch(() => undefined);
        return;
      }
      this.client = c;
      this.emit(null); // anything cached before now was not watched
      this.watching = true;
    } catch (e) {
      lost((e as Error).message);
    }
  }

  private emit(agentId: string | null): void {
    for (const l of this.listeners) l(agentId);
  }
}
