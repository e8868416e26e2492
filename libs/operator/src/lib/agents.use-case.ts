import { Inject, Injectable } from '@nestjs/common';
import type { AgentDto, AgentRecord } from '@gaia/contracts';
import { DomainError } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { OPERATOR_POLL_MS, OPERATOR_WAIT_MS } from './operator.tokens';
import { waitUntil } from './wait-until';

/** `gaia agents rebuild|publish <id>`: operator actions on any agent, through the owning services. */
@Injectable()
export class OperatorAgentsUseCase {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  private async resolve(agentId: string): Promise<AgentRecord> {
    const { agent } = await this.rpc.call('agents.resolve.v1', { agentId });
    if (!agent) throw DomainError.notFound('Model not found.', 'agent_not_found');
    return agent;
  }

  /** Learns the agent again from its stored pairs and waits until the new artifact serves. */
  async rebuild(agentId: string): Promise<{ id: string; artifact_version: string; pair_count: number }> {
    await this.resolve(agentId);
    const { version } = await this.rpc.call('ingestion.rebuild-agent.v1', { agentId });
    const agent = await waitUntil(
      () => this.resolve(agentId),
      (a) => a.artifact_version === version,
      { intervalMs: OPERATOR_POLL_MS, timeoutMs: OPERATOR_WAIT_MS, what: `agent ${agentId} version ${version}` },
    );
    return { id: agent.id, artifact_version: version, pair_count: agent.pair_count };
  }

  /** Makes an agent public, acting as its owner (the agents service applies its usual rule). */
  async publish(agentId: string): Promise<AgentDto> {
    const agent = await this.resolve(agentId);
    return this.rpc.call('agents.set-visibility.v1', { agentId, viewer: { uid: agent.uid, email: '' }, public: true });
  }
}
