/**
 * The JSON bodies the OpenSearch adapter sends, built by pure functions so that the wire double, the
 * contract suite and the docs all see the same shapes.
 *
 * Formats follow the OpenSearch documentation:
 * - composable index template: `PUT /_index_template/<name>` `{ index_patterns, priority, template: { settings, mappings } }`
 * - `knn_vector` field with an HNSW method definition (`index.knn: true` in the settings)
 * - `PUT /_search/pipeline/<id>` with a `normalization-processor` in `phase_results_processors`
 * - `hybrid` compound query (at most 5 sub-queries) run with `?search_pipeline=<id>`
 */

export interface LanguagePair {
  source: string;
  target: string;
}

export interface IndexLayout {
  /** Prefix of every Gaia pair index. Default `gaia-pairs`. */
  indexPrefix: string;
  /** Dimension of the embeddings stored in the `vector` field. */
  vectorDimension: number;
  shards: number;
  replicas: number;
}

export const DEFAULT_LAYOUT: IndexLayout = {
  indexPrefix: 'gaia-pairs',
  vectorDimension: 1536,
  shards: 3,
  replicas: 1,
};

/** Built-in language analyzers for the high-resource side of a pair; other languages get `gaia_folded`. */
const LANGUAGE_ANALYZERS: Record<string, string> = {
  en: 'english',
  es: 'spanish',
  pt: 'portuguese',
  fr: 'french',
  de: 'german',
  it: 'italian',
};

export const NGRAM_ANALYZER = 'gaia_char_ngram';
export const FOLDED_ANALYZER = 'gaia_folded';

export function analyzerFor(language: string): string {
  const base = language.toLowerCase().split(/[-_]/)[0];
  return LANGUAGE_ANALYZERS[base] ?? FOLDED_ANALYZER;
}

function sanitizeLanguage(language: string): string {
  const cleaned = language
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return cleaned || 'und';
}

/** `gaia-pairs-es-qu`: one index (and one template) per language pair. */
export function indexNameFor(layout: IndexLayout, pair: LanguagePair): string {
  return `${layout.indexPrefix}-${sanitizeLanguage(pair.source)}-${sanitizeLanguage(pair.target)}`;
}

/** Pattern that matches every pair index (for per-agent deletes that must not miss a pair). */
export function allIndicesPattern(layout: IndexLayout): string {
  return `${layout.indexPrefix}-*`;
}

/** Document id: unique across agents sharing a language-pair index. */
export function documentId(agentId: string, pairId: string): string {
  return `${agentId}:${pairId}`;
}

function textField(language: string): Record<string, unknown> {
  return {
    type: 'text',
    similarity: 'BM25',
    analyzer: analyzerFor(language),
    fields: {
      ngram: { type: 'text', similarity: 'BM25', analyzer: NGRAM_ANALYZER },
    },
  };
}

/** Body of `PUT /_index_template/<indexName>`. */
export function indexTemplateBody(layout: IndexLayout, pair: LanguagePair): Record<string, unknown> {
  const name = indexNameFor(layout, pair);
  return {
    index_patterns: [name],
    priority: 100,
    _meta: { owner: 'gaia', source_language: pair.source, target_language: pair.target },
    template: {
      settings: {
        index: {
          number_of_shards: layout.shards,
          number_of_replicas: layout.replicas,
          knn: true,
          max_ngram_diff: 1,
        },
        analysis: {
          filter: {
            gaia_ngram_filter: { type: 'ngram', min_gram: 3, max_gram: 4 },
          },
          analyzer: {
            [FOLDED_ANALYZER]: {
              type: 'custom',
              tokenizer: 'standard',
              filter: ['lowercase', 'asciifolding'],
            },
            [NGRAM_ANALYZER]: {
              type: 'custom',
              tokenizer: 'standard',
              filter: ['lowercase', 'asciifolding', 'gaia_ngram_filter'],
            },
          },
        },
      },
      mappings: {
        dynamic: 'strict',
        _routing: { required: true },
        properties: {
          agent_id: { type: 'keyword' },
          pair_id: { type: 'keyword' },
          source: textField(pair.source),
          target: textField(pair.target),
          vector: {
            type: 'knn_vector',
            dimension: layout.vectorDimension,
            method: {
              name: 'hnsw',
              space_type: 'cosinesimil',
              engine: 'lucene',
              parameters: { m: 16, ef_construction: 128 },
            },
          },
        },
      },
    },
  };
}

/** Weights of the lexical and the vector sub-query in the hybrid combination (sum must be 1.0). */
export const HYBRID_WEIGHTS: [number, number] = [0.6, 0.4];

/** Body of `PUT /_search/pipeline/<id>`. */
export function searchPipelineBody(weights: [number, number] = HYBRID_WEIGHTS): Record<string, unknown> {
  return {
    description: 'Gaia hybrid retrieval: min-max normalise BM25 and k-NN scores, then a weighted mean',
    phase_results_processors: [
      {
        'normalization-processor': {
          normalization: { technique: 'min_max' },
          combination: { technique: 'arithmetic_mean', parameters: { weights } },
        },
      },
    ],
  };
}

export interface SearchBodyInput {
  agentId: string;
  query: string;
  k: number;
  side: 'source' | 'target';
  vector?: number[];
}

function agentFilter(agentId: string): Record<string, unknown> {
  return { term: { agent_id: agentId } };
}

/** BM25 on the analysed field plus the character n-gram sub-field, restricted to one agent. */
export function lexicalQuery(input: SearchBodyInput): Record<string, unknown> {
  return {
    bool: {
      should: [{ match: { [input.side]: { query: input.query } } }, { match: { [`${input.side}.ngram`]: { query: input.query, boost: 0.5 } } }],
      minimum_should_match: 1,
      filter: [agentFilter(input.agentId)],
    },
  };
}

/** k-NN sub-query with an efficient (pre-)filter on the agent. */
export function knnQuery(agentId: string, vector: number[], k: number): Record<string, unknown> {
  return { knn: { vector: { vector, k, filter: agentFilter(agentId) } } };
}

/** `_search` body: a plain bool query, or a `hybrid` query when a query vector is given. */
export function searchBody(input: SearchBodyInput): Record<string, unknown> {
  const query = input.vector ? { hybrid: { queries: [lexicalQuery(input), knnQuery(input.agentId, input.vector, input.k)] } } : lexicalQuery(input);
  return {
    size: input.k,
    _source: { excludes: ['vector'] },
    query,
  };
}

/** `_delete_by_query` body for some pairs of an agent, or every pair of it when `pairIds` is absent. */
export function deleteBody(agentId: string, pairIds?: string[]): Record<string, unknown> {
  const filter: Record<string, unknown>[] = [agentFilter(agentId)];
  if (pairIds) filter.push({ terms: { pair_id: pairIds } });
  return { query: { bool: { filter } } };
}
