import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EventMap } from '@gaia/contracts';
import { OnEvent, RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { RealtimeGateway, emailRoom, userRoom } from './realtime.gateway';

/**
 * Turns domain events into Socket.IO pushes for the owner and editors of the agent concerned. One gateway
 * replica consumes each event (consumer group `gateway`); the Redis adapter fans it out to every replica.
 * Recipients are the agent's members when the event is pushed (user room of the owner, email rooms of the
 * editors), never rooms joined earlier: a removed editor's open socket stops receiving at once.
 */
@Injectable()
export class RealtimeListener {
  private readonly logger = new Logger('RealtimeListener');

  constructor(
    private readonly realtime: RealtimeGateway,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
  ) {}

  @OnEvent('gateway', 'ingestion.task-progress.v1')
  async onTaskProgress(p: EventMap['ingestion.task-progress.v1']): Promise<void> {
    this.realtime.emit(await this.rooms(p.agentId, p.ownerId), 'task_progress', p.task);
  }

  @OnEvent('gateway', 'ingestion.task-finished.v1')
  async onTaskFinished(p: EventMap['ingestion.task-finished.v1']): Promise<void> {
    this.realtime.emit(await this.rooms(p.agentId, p.ownerId), 'task_progress', p.task);
  }

  @OnEvent('gateway', 'agents.agent-updated.v1')
  async onAgentUpdated(p: EventMap['agents.agent-updated.v1']): Promise<void> {
    this.realtime.emit([userRoom(p.ownerId), ...p.sharedWithEmails.map(emailRoom)], 'agent_updated', p.agent);
  }

  /** Owner + editors (sharedWithEmails) of an agent; the owner alone when the agents service cannot answer. */
  private async rooms(agentId: string, ownerId: string): Promise<string[]> {
    const rooms = [userRoom(ownerId)];
    try {
      const { agent } = await this.rpc.call('agents.resolve.v1', { agentId }, { timeoutMs: 5000 });
      if (agent) rooms.push(...agent.sharedWithEmails.map(emailRoom));
    } catch (e) {
      this.logger.warn(`editors of ${agentId} unknown: ${(e as Error).message}`);
    }
    return rooms;
  }
}
