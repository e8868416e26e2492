import { z } from 'zod';
import { defineRpc, type RpcRegistry } from './define';

export const retrievalHitSchema = z.object({
  id: z.string(),
  score: z.number(),
  source: z.string(),
  target: z.string(),
  matchedTerms: z.array(z.string()),
});

/** Calls served by the retrieval service. Add entries; never rename or remove one (add a v2 instead). */
export const retrievalRpc = {
  'retrieval.search.v1': defineRpc({
    service: 'retrieval',
    description: "Hybrid search (BM25 words + character n-grams + corpus vectors, fused) over an agent's pairs.",
    request: z.object({
      agentId: z.string().min(1),
      query: z.string().min(1).max(2000),
      k: z.number().int().min(1).max(50).default(8),
      side: z.enum(['source', 'target']).default('source'),
    }),
    response: z.object({ hits: z.array(retrievalHitSchema), version: z.string().nullable() }),
    timeoutMs: 10_000,
  }),
} satisfies RpcRegistry;
