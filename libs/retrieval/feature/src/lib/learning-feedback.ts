import { Logger } from '@nestjs/common';
import { CONSISTENT_PAGES_READS, readConsistentPages, type RpcClient } from '@gaia/shared/messaging';

const logger = new Logger('LearningFeedback');

/**
 * Every correction of an agent, page by page (agents.feedback-page.v1: each page well below NATS's 1 MiB per
 * message), one consistent feedback version (readConsistentPages); the glossary pages that follow the corrections
 * are not needed for learning, so the read stops at the first of them.
 */
async function allCorrections(rpc: Pick<RpcClient, 'call'>, agentId: string): Promise<{ id: string; source: string; target: string }[]> {
  const pages = await readConsistentPages((cursor) => rpc.call('agents.feedback-page.v1', { agentId, cursor }), {
    conflict: () => new Error(`the corrections of agent ${agentId} changed during ${CONSISTENT_PAGES_READS} reads`),
    complete: (page) => page.glossary.length > 0,
  });
  return pages.flatMap((p) => p.corrections);
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
