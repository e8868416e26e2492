/**
 * The learned artifacts of an agent, produced by the retrieval/learning step: the serialized
 * `AgentModel` (core memory, lexicon, language model) and the serialized `HybridIndex` of its pairs.
 */
export interface AgentArtifacts {
  model: Uint8Array;
  index: Uint8Array;
}

/** Reads an agent's artifacts (file storage in production); `null` when they do not exist. */
export interface AgentArtifactsPort {
  /** `key`: the storage key recorded on the agent, when known (else the adapter's default layout). */
  load(agentId: string, version: string, key?: string | null): Promise<AgentArtifacts | null>;
}

export const AGENT_ARTIFACTS = Symbol('AGENT_ARTIFACTS');
