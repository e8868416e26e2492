import type { INestApplicationContext } from '@nestjs/common';
import { CreateAgentUseCase, type NewAgent } from '@gaia/agents/feature';
import type { AgentDto } from '@gaia/contracts';

export type AgentSeed = Pick<NewAgent, 'ownerId' | 'srcLang' | 'tgtLang'> & Partial<NewAgent>;

/**
 * Seeds an agent through the agents service's own use case (in production agents are created from
 * `ingestion.task-started.v1`, so there is no RPC for it). Defaults: private, built-in engine, no notes.
 */
export function createAgent(app: INestApplicationContext, seed: AgentSeed): Promise<AgentDto> {
  return app
    .get(CreateAgentUseCase, { strict: false })
    .execute({ ownerEmail: '', customPrompt: '', coreMemory: '', processingTaskId: null, filenames: [], engine: 'builtin', public: false, ...seed });
}
