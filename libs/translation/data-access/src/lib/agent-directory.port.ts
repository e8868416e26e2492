import type { EngineKind, TranslationAgentRecord } from '@gaia/contracts';

/** What the translation service needs to know about an agent (owned by the agents service). */
export interface TranslationAgentProfile {
  id: string;
  /** The owner's uid (whose plan meters translations that no caller asked for, such as the quality A/B); absent when unknown. */
  ownerId?: string;
  srcLang: string;
  tgtLang: string;
  /** Agent description (`custom_prompt`). */
  customPrompt: string;
  /** Owner notes (`core_memory`). */
  coreMemory: string;
  /** Engine stored on the agent; `builtin` by default. */
  engine: EngineKind;
  /** Version of the learned artifacts (changes on every retrain); null while none were built. */
  artifactsVersion: string | null;
  /** File-storage key of that version's artifact, when the agents service knows it. */
  artifactKey?: string | null;
  /** Version of the owner's corrections and glossary (0: none yet); the feedback cache's key. */
  feedbackVersion?: number;
}

/** Looks agents up; `null` for unknown or deleted agents. */
export interface AgentDirectoryPort {
  /** `known`: the record the caller's access check already resolved (then no lookup). */
  find(agentId: string, known?: TranslationAgentRecord | null): Promise<TranslationAgentProfile | null>;
}

export const AGENT_DIRECTORY = Symbol('AGENT_DIRECTORY');
