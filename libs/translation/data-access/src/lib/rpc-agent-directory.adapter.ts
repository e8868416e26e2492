import type { RpcClient } from '@gaia/shared/messaging';
import type { TranslationAgentRecord } from '@gaia/contracts';
import type { AgentDirectoryPort, TranslationAgentProfile } from './agent-directory.port';

/**
 * Agent profiles from the agents service (`agents.resolve.v1`: internal, no access check; null = unknown or
 * deleted), or from the record the gateway's access check resolved and sent along (no second call).
 */
export class RpcAgentDirectory implements AgentDirectoryPort {
  constructor(private readonly rpc: Pick<RpcClient, 'call'>) {}

  async find(agentId: string, known?: TranslationAgentRecord | null): Promise<TranslationAgentProfile | null> {
    const given = known && known.id === agentId ? known : null;
    const stored = given ? null : (await this.rpc.call('agents.resolve.v1', { agentId })).agent;
    const agent = given ?? stored;
    if (!agent) return null;
    return {
      id: agent.id,
      ownerId: stored?.uid, // the full record (agents.resolve.v1) names the owner
      srcLang: agent.src_lang,
      tgtLang: agent.tgt_lang,
      customPrompt: agent.custom_prompt,
      coreMemory: agent.core_memory,
      engine: agent.engine,
      artifactsVersion: agent.artifact_version,
      artifactKey: agent.artifact_key,
      feedbackVersion: agent.feedback_version ?? 0,
    };
  }
}
