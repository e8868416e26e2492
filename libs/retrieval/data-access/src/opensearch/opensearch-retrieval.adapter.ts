import { Client } from '@opensearch-project/opensearch';
import type { IndexedPair, RetrievalHit, RetrievalIndexPort, RetrievalSearchOptions } from '../retrieval-index.port';
import {
  DEFAULT_LAYOUT,
  IndexLayout,
  LanguagePair,
  allIndicesPattern,
  deleteBody,
  documentId,
  indexNameFor,
  indexTemplateBody,
  searchBody,
  searchPipelineBody,
  HYBRID_WEIGHTS,
} from './opensearch-index-definitions';

export type RefreshPolicy = 'wait_for' | 'true' | 'false';

export interface OpenSearchRetrievalOptions extends Partial<IndexLayout> {
  /** Which language pair an agent translates; decides the index its pairs live in. */
  languagePairOf?: (agentId: string) => Promise<LanguagePair>;
  /** Search pipeline id holding the normalization processor. Default `gaia-hybrid`. */
  searchPipeline?: string;
  hybridWeights?: [number, number];
  /** Refresh policy of writes. `wait_for` (default) makes an upsert visible to the next search. */
  refresh?: RefreshPolicy;
  /** Pairs per `_bulk` request. Default 500. */
  bulkBatchSize?: number;
}

export interface OpenSearchConnection {
  url: string;
  username?: string;
  password?: string;
}

/** Client from the documented settings (`OPENSEARCH_URL`, `OPENSEARCH_USERNAME`, `OPENSEARCH_PASSWORD`). */
export function createOpenSearchClient(connection: OpenSearchConnection): Client {
  return new Client({
    node: connection.url,
    auth: connection.username !== undefined && connection.password !== undefined ? { username: connection.username, password: connection.password } : undefined,
    maxRetries: 3,
    requestTimeout: 30_000,
  });
}

interface SearchHitSource {
  pair_id: string;
  agent_id: string;
  source: string;
  target: string;
}

interface BulkItemResult {
  status?: number;
  error?: { type?: string; reason?: string };
}

const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}'’]*/gu;

function words(text: string): string[] {
  return text.normalize('NFC').toLowerCase().match(WORD) ?? [];
}

function folded(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '');
}

/** Query words (lower-cased, as written) that occur in the hit's text, ignoring accents; once each. */
export function matchedTerms(query: string, text: string): string[] {
  const present = new Set(words(text).map(folded));
  const out: string[] = [];
  for (const word of words(query)) if (present.has(folded(word)) && !out.includes(word)) out.push(word);
  return out;
}

/**
 * Retrieval index on OpenSearch: one index per language pair (created from a composable index template),
 * documents routed by agent id and always filtered by it, BM25 + character n-grams for the lexical side,
 * a lucene HNSW `knn_vector` for the semantic side, combined by a `hybrid` query through a search pipeline
 * with the normalization processor.
 */
export class OpenSearchRetrievalAdapter implements RetrievalIndexPort {
  private readonly layout: IndexLayout;
  private readonly pipelineId: string;
  private readonly weights: [number, number];
  private readonly refresh: RefreshPolicy;
  private readonly batchSize: number;
  private readonly languagePairOf: (agentId: string) => Promise<LanguagePair>;
  private readonly templates = new Map<string, Promise<void>>();
  private pipeline?: Promise<void>;

  constructor(
    private readonly client: Client,
    options: OpenSearchRetrievalOptions = {},
  ) {
    this.layout = {
      indexPrefix: options.indexPrefix ?? DEFAULT_LAYOUT.indexPrefix,
      vectorDimension: options.vectorDimension ?? DEFAULT_LAYOUT.vectorDimension,
      shards: options.shards ?? DEFAULT_LAYOUT.shards,
      replicas: options.replicas ?? DEFAULT_LAYOUT.replicas,
    };
    this.pipelineId = options.searchPipeline ?? 'gaia-hybrid';
    this.weights = options.hybridWeights ?? HYBRID_WEIGHTS;
    this.refresh = options.refresh ?? 'wait_for';
    this.batchSize = options.bulkBatchSize ?? 500;
    this.languagePairOf = options.languagePairOf ?? (async () => ({ source: 'und', target: 'und' }));
    if (Math.abs(this.weights[0] + this.weights[1] - 1) > 1e-9) {
      throw new Error('hybridWeights must sum to 1.0');
    }
  }

  /** Installs the search pipeline (idempotent; also done lazily before the first hybrid search). */
  ensureSearchPipeline(): Promise<void> {
    if (!this.pipeline) {
      this.pipeline = this.client.searchPipeline.put({ id: this.pipelineId, body: searchPipelineBody(this.weights) as never }).then(() => undefined);
      this.pipeline.catch(() => (this.pipeline = undefined));
    }
    return this.pipeline;
  }

  /** Installs the index template of a language pair (idempotent; done lazily before the first write). */
  ensureIndexTemplate(pair: LanguagePair): Promise<void> {
    const name = indexNameFor(this.layout, pair);
    let pending = this.templates.get(name);
    if (!pending) {
      pending = this.client.indices.putIndexTemplate({ name, body: indexTemplateBody(this.layout, pair) as never }).then(() => undefined);
      pending.catch(() => this.templates.delete(name));
      this.templates.set(name, pending);
    }
    return pending;
  }

  async upsert(agentId: string, pairs: IndexedPair[]): Promise<void> {
    if (pairs.length === 0) return;
    const pair = await this.languagePairOf(agentId);
    await this.ensureIndexTemplate(pair);
    const index = indexNameFor(this.layout, pair);
    for (let start = 0; start < pairs.length; start += this.batchSize) {
      const body: Record<string, unknown>[] = [];
      for (const p of pairs.slice(start, start + this.batchSize)) {
        if (p.vector && p.vector.length !== this.layout.vectorDimension) {
          throw new Error(`pair ${p.id}: vector has ${p.vector.length} dimensions, the index expects ${this.layout.vectorDimension}`);
        }
        body.push({ index: { _index: index, _id: documentId(agentId, p.id), routing: agentId } });
        const doc: Record<string, unknown> = { agent_id: agentId, pair_id: p.id, source: p.source, target: p.target };
        if (p.vector) doc['vector'] = p.vector;
        body.push(doc);
      }
      const res = await this.client.bulk({ body, refresh: this.refresh });
      const result = res.body as { errors?: boolean; items?: Record<string, BulkItemResult>[] };
      if (result.errors) {
        const failed = (result.items ?? []).map((item) => Object.values(item)[0]).filter((r) => r?.error);
        const first = failed[0]?.error;
        throw new Error(`OpenSearch bulk indexing failed for ${failed.length} pair(s): ${first?.type ?? 'error'}: ${first?.reason ?? ''}`);
      }
    }
  }

  async remove(agentId: string, pairIds: string[]): Promise<void> {
    if (pairIds.length === 0) return;
    await this.deleteByQuery(agentId, pairIds);
  }

  async dropAgent(agentId: string): Promise<void> {
    await this.deleteByQuery(agentId);
  }

  async search(agentId: string, query: string, k: number, opts: RetrievalSearchOptions = {}): Promise<RetrievalHit[]> {
    const side = opts.side ?? 'source';
    if (k <= 0 || (!query.trim() && !opts.vector)) return [];
    if (opts.vector) {
      if (opts.vector.length !== this.layout.vectorDimension) {
        throw new Error(`query vector has ${opts.vector.length} dimensions, the index expects ${this.layout.vectorDimension}`);
      }
      await this.ensureSearchPipeline();
    }
    const pair = await this.languagePairOf(agentId);
    const res = await this.client.search({
      index: indexNameFor(this.layout, pair),
      routing: agentId,
      ignore_unavailable: true,
      ...(opts.vector ? { search_pipeline: this.pipelineId } : {}),
      body: searchBody({ agentId, query, k, side, vector: opts.vector }) as never,
    });
    const hits = (res.body as { hits?: { hits?: { _score?: number | null; _source?: SearchHitSource }[] } }).hits?.hits ?? [];
    return hits
      .filter((h): h is { _score?: number | null; _source: SearchHitSource } => !!h._source && h._source.agent_id === agentId)
      .map((h) => ({
        id: h._source.pair_id,
        score: h._score ?? 0,
        source: h._source.source,
        target: h._source.target,
        matchedTerms: matchedTerms(query, side === 'source' ? h._source.source : h._source.target),
      }));
  }

  private async deleteByQuery(agentId: string, pairIds?: string[]): Promise<void> {
    await this.client.deleteByQuery({
      index: allIndicesPattern(this.layout),
      routing: agentId,
      conflicts: 'proceed',
      refresh: this.refresh !== 'false',
      allow_no_indices: true,
      ignore_unavailable: true,
      body: deleteBody(agentId, pairIds) as never,
    });
  }
}
