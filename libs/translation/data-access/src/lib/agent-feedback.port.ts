import type { AgentFeedback } from '@gaia/contracts';
import type { Direction, RequestFeedback } from '@gaia/translation/llm';

/**
 * The owner's corrections and glossary of an agent as one request needs them, read through a per-agent cache
 * that is valid while the agent's feedback version (agents.resolve.v1 `feedback_version`, bumped in the same
 * transaction as every correction or glossary change) is unchanged — so every replica serves a change from its
 * very next request, with no rebuild and no broadcast.
 */
export interface AgentFeedbackPort {
  forRequest(agentId: string, version: number, text: string, direction: Direction): Promise<RequestFeedback>;
}

/** Where the cache reads an agent's feedback from (agents.feedback-page.v1, page by page). */
export interface AgentFeedbackSource {
  load(agentId: string): Promise<AgentFeedback>;
}

export const AGENT_FEEDBACK = Symbol('AGENT_FEEDBACK');
