import type { RpcClient } from '@gaia/shared/messaging';
import type { AgentDirectoryPort, TranslationAgentProfile } from './agent-directory.port';

/** Agent profiles from the agents service (`agents.resolve.v1`: internal, no access check; null = unknown or deleted). */
export class RpcAgentDirectory implements AgentDirectoryPort {
  constructor(private readonly rpc: Pick<RpcClient, 'call'>) {}

  async find(agentId: string): Promise<TranslationAgentProfile | null> {
    const { agent } = await this.rpc.call('agents.resolve.v1', { agentId });
    if (!agent) return null;
    return {
      id: agent.id,
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
