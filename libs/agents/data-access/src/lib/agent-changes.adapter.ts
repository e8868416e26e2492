import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE, PgChannelListener } from '@gaia/shared/database';

/** The channel the agent trigger notifies (migration AgentsChangeNotify1795700000001). */
export const AGENT_CHANGES_CHANNEL = 'gaia_agent_changed';
/** Wait before listening again after the LISTEN connection was lost. */
export const AGENT_RELISTEN_DELAY_MS = 500;

/** Changed agent ids as every replica hears them; `null` = changes may have been missed (drop everything). */
export interface AgentChangesPort {
  subscribe(onChange: (agentId: string | null) => void): void;
  /** False while changes cannot be heard: caches must not serve then. */
  readonly watching: boolean;
  /** Resolves once every change committed before the call has reached the subscribers of this process. */
  settle(): Promise<void>;
}
export const AGENT_CHANGES = Symbol('AGENT_CHANGES');

/** `AgentChangesPort` on one dedicated Postgres LISTEN connection (re-established when lost). */
@Injectable()
export class PostgresAgentChanges implements AgentChangesPort, OnModuleInit, OnModuleDestroy {
  private readonly listeners: Array<(agentId: string | null) => void> = [];
  private readonly listener: PgChannelListener;

  constructor(@Inject(DATA_SOURCE) ds: DataSource) {
    this.listener = new PgChannelListener({
      url: (ds.options as { url?: string }).url,
      channel: AGENT_CHANGES_CHANNEL,
      applicationName: 'gaia-agent-changes',
      relistenDelayMs: AGENT_RELISTEN_DELAY_MS,
      logger: new Logger('AgentChanges'),
      pauses: 'agent caching',
      onNotification: (agentId) => this.emit(agentId),
      onMissed: () => this.emit(null),
    });
  }

  get watching(): boolean {
    return this.listener.watching;
  }

  subscribe(onChange: (agentId: string | null) => void): void {
    this.listeners.push(onChange);
  }

  settle(): Promise<void> {
    return this.listener.barrier();
  }

  onModuleInit(): Promise<void> {
    return this.listener.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.listener.stop();
  }

  private emit(agentId: string | null): void {
    for (const l of this.listeners) l(agentId);
  }
}
