import { Logger } from '@nestjs/common';
import type { RpcResponse } from '@gaia/contracts';
import type { RpcClient } from '@gaia/shared/messaging';

const logger = new Logger('LearningFeedback');

/** Reads of an agent's pages before giving up when its feedback keeps changing under the read (the run learns without them). */
const FEEDBACK_READ_ATTEMPTS = 3;

/**
 * Every correction of an agent, page by page (agents.feedback-page.v1: each page well below NATS's 1 MiB per
 * message), started over when the feedback version changed between two pages (a page continues after the last row
 * of the one before: once that row is deleted the read would stop there); the glossary pages that follow are not
 * needed for learning, so the read stops at the first of them.
 */
async function allCorrections(rpc: Pick<RpcClient, 'call'>, agentId: string): Promise<{ id: string; source: string; target: string }[]> {
  for (let attempt = 0; attempt < FEEDBACK_READ_ATTEMPTS; attempt++) {
    const corrections: { id: string; source: string; target: string }[] = [];
    let version: number | null = null;
    let cursor: string | null = null;
    do {
      const page: RpcResponse<'agents.feedback-page.v1'> = await rpc.call('agents.feedback-page.v1', { agentId, cursor });
      if (version !== null && page.version !== version) break;
      version = page.version;
      corrections.push(...page.corrections);
      cursor = page.glossary.length ? null : page.next;
    } while (cursor);
    if (!cursor) return corrections;
  }
  throw new Error(`the corrections of agent ${agentId} changed during ${FEEDBACK_READ_ATTEMPTS} reads`);
}

/**
 * The pairs a learning run trains on: the stored pairs (JSONL) followed by the owner's corrections of the agent
 * (`correction-<id>`, source → corrected), so the next run folds them into the core memory and the index. When
 * the agents service cannot answer, the run learns the stored pairs only (the corrections still reach every
 * answer through the translation service's feedback).
 */
export async function withCorrections(rpc: Pick<RpcClient, 'call'>, agentId: string, pairsJsonl: Uint8Array): Promise<Uint8Array> {
  let corrections: { id: string; source: string; target: string }[];
  try {
    corrections = await allCorrections(rpc, agentId);
  } catch (e) {
    logger.warn(`corrections of agent ${agentId} not folded into this learning run: ${(e as Error).message}`);
    return pairsJsonl;
  }
  if (corrections.length === 0) return pairsJsonl;
  const lines = corrections.map((c) => JSON.stringify({ id: `correction-${c.id}`, source: c.source, target: c.target })).join('\n');
  const last = pairsJsonl.length ? pairsJsonl[pairsJsonl.length - 1] : 0x0a;
  return Buffer.concat([Buffer.from(pairsJsonl), Buffer.from(`${last === 0x0a ? '' : '\n'}${lines}\n`, 'utf8')]);
}
