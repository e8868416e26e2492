import type { AgentArtifacts } from '@gaia/retrieval/data-access';

/** The learned artifact container is the retrieval service's (model + hybrid index, one blob). */
export type { AgentArtifacts };

/** Reads an agent's artifacts (file storage in production); `null` when they do not exist. */
export interface AgentArtifactsPort {
  /** `key`: the storage key recorded on the agent, when known (else the adapter's default layout). */
  load(agentId: string, version: string, key?: string | null): Promise<AgentArtifacts | null>;
}

export const AGENT_ARTIFACTS = Symbol('AGENT_ARTIFACTS');
