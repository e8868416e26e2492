import { Client } from '@opensearch-project/opensearch';
import { OpenSearchRetrievalAdapter, createOpenSearchClient, matchedTerms } from './opensearch-retrieval.adapter';
import { OpenSearchWireDouble } from './testing/opensearch-wire.double';
import { CONTRACT_DIMENSION, CONTRACT_LANGUAGES, describeRetrievalContract } from './testing/retrieval-index.contract';

const languagePairOf = async (agentId: string) => CONTRACT_LANGUAGES[agentId] ?? { source: 'und', target: 'und' };

// The same contract the real cluster must pass, here over the wire double (one shard, so that a missing
// agent filter would leak other agents' pairs).
describeRetrievalContract('wire double', () => {
  const double = new OpenSearchWireDouble();
  let client: Client | undefined;
  return {
    async create() {
      const url = await double.start();
      client = createOpenSearchClient({ url });
      return new OpenSearchRetrievalAdapter(client, { vectorDimension: CONTRACT_DIMENSION, shards: 1, replicas: 0, languagePairOf });
    },
    async cleanup() {
      await client?.close();
      await double.stop();
    },
  };
});

describe('OpenSearchRetrievalAdapter wire format', () => {
  let double: OpenSearchWireDouble;
  let client: Client;
  let adapter: OpenSearchRetrievalAdapter;

  beforeEach(async () => {
    double = new OpenSearchWireDouble();
    const url = await double.start();
    client = createOpenSearchClient({ url, username: 'gaia', password: 's3cret' });
    adapter = new OpenSearchRetrievalAdapter(client, { vectorDimension: 3, shards: 2, replicas: 1, languagePairOf });
  });

  afterEach(async () => {
    await client.close();
    await double.stop();
  });

  // The client sends POST /_index_template/<name> (OpenSearch accepts PUT and POST for it).
  it('installs the documented composable index template for the language pair before the first bulk', async () => {
    await adapter.upsert('alice', [{ id: 'p1', source: 'Casa', target: 'Wasi', vector: [1, 0, 0] }]);
    const [put] = double.find('POST', /^\/_index_template\//);
    expect(put.path).toBe('/_index_template/gaia-pairs-es-qu');
    expect(put.body).toEqual({
      index_patterns: ['gaia-pairs-es-qu'],
      priority: 100,
      _meta: { owner: 'gaia', source_language: 'es', target_language: 'qu' },
      template: {
        settings: {
          index: { number_of_shards: 2, number_of_replicas: 1, knn: true, max_ngram_diff: 1 },
          analysis: {
            filter: { gaia_ngram_filter: { type: 'ngram', min_gram: 3, max_gram: 4 } },
            analyzer: {
              gaia_folded: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] },
              gaia_char_ngram: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'gaia_ngram_filter'] },
            },
          },
        },
        mappings: {
          dynamic: 'strict',
          _routing: { required: true },
          properties: {
            agent_id: { type: 'keyword' },
            pair_id: { type: 'keyword' },
            source: {
              type: 'text',
              similarity: 'BM25',
              analyzer: 'spanish',
              fields: { ngram: { type: 'text', similarity: 'BM25', analyzer: 'gaia_char_ngram' } },
            },
            target: {
              type: 'text',
              similarity: 'BM25',
              analyzer: 'gaia_folded',
              fields: { ngram: { type: 'text', similarity: 'BM25', analyzer: 'gaia_char_ngram' } },
            },
            vector: {
              type: 'knn_vector',
              dimension: 3,
              method: { name: 'hnsw', space_type: 'cosinesimil', engine: 'lucene', parameters: { m: 16, ef_construction: 128 } },
            },
          },
        },
      },
    });
    const order = double.requests.map((r) => `${r.method} ${r.path}`);
    expect(order.indexOf('POST /_index_template/gaia-pairs-es-qu')).toBeLessThan(order.indexOf('POST /_bulk'));
  });

  it('sends each language pair template once per process', async () => {
    await adapter.upsert('alice', [{ id: 'p1', source: 'a', target: 'b' }]);
    await adapter.upsert('bob', [{ id: 'p1', source: 'a', target: 'b' }]);
    await adapter.upsert('carol', [{ id: 'p1', source: 'a', target: 'b' }]);
    expect(double.find('POST', /^\/_index_template\//).map((r) => r.path)).toEqual(['/_index_template/gaia-pairs-es-qu', '/_index_template/gaia-pairs-en-ay']);
    expect(double.templates.get('gaia-pairs-en-ay')!.template.mappings.properties.source.analyzer).toBe('english');
  });

  it('bulk-indexes NDJSON with routing by agent and refresh=wait_for', async () => {
    await adapter.upsert('alice', [
      { id: 'p1', source: 'La casa', target: 'Wasi', vector: [1, 0, 0] },
      { id: 'p2', source: 'El agua', target: 'Yaku' },
    ]);
    const [bulk] = double.find('POST', /^\/_bulk$/);
    expect(bulk.contentType).toMatch(/^application\/(vnd\.opensearch\+)?x-ndjson/);
    expect(bulk.query).toEqual({ refresh: 'wait_for' });
    expect(bulk.rawBody).toBe(
      [
        '{"index":{"_index":"gaia-pairs-es-qu","_id":"alice:p1","routing":"alice"}}',
        '{"agent_id":"alice","pair_id":"p1","source":"La casa","target":"Wasi","vector":[1,0,0]}',
        '{"index":{"_index":"gaia-pairs-es-qu","_id":"alice:p2","routing":"alice"}}',
        '{"agent_id":"alice","pair_id":"p2","source":"El agua","target":"Yaku"}',
        '',
      ].join('\n'),
    );
    expect(double.documents('gaia-pairs-es-qu').map((d) => [d.id, d.routing])).toEqual([
      ['alice:p1', 'alice'],
      ['alice:p2', 'alice'],
    ]);
  });

  it('splits large upserts into bulk requests of bulkBatchSize pairs', async () => {
    const small = new OpenSearchRetrievalAdapter(client, { vectorDimension: 3, languagePairOf, bulkBatchSize: 2 });
    await small.upsert(
      'alice',
      [1, 2, 3, 4, 5].map((n) => ({ id: `p${n}`, source: `s${n}`, target: `t${n}` })),
    );
    const bulks = double.find('POST', /^\/_bulk$/);
    expect(bulks.map((b) => (b.body as unknown[]).length)).toEqual([4, 4, 2]);
    expect(double.documents('gaia-pairs-es-qu')).toHaveLength(5);
  });

  it('installs the normalization-processor search pipeline and sends a hybrid query through it', async () => {
    await adapter.upsert('alice', [{ id: 'p1', source: 'La casa', target: 'Wasi', vector: [1, 0, 0] }]);
    await adapter.search('alice', 'casa', 7, { vector: [0, 1, 0] });
    const [pipeline] = double.find('PUT', /^\/_search\/pipeline\//);
    expect(pipeline.path).toBe('/_search/pipeline/gaia-hybrid');
    expect(pipeline.body).toEqual({
      description: 'Gaia hybrid retrieval: min-max normalise BM25 and k-NN scores, then a weighted mean',
      phase_results_processors: [
        {
          'normalization-processor': {
            normalization: { technique: 'min_max' },
            combination: { technique: 'arithmetic_mean', parameters: { weights: [0.6, 0.4] } },
          },
        },
      ],
    });
    const [search] = double.find('POST', /\/_search$/);
    expect(search.path).toBe('/gaia-pairs-es-qu/_search');
    expect(search.query).toEqual({ routing: 'alice', ignore_unavailable: 'true', search_pipeline: 'gaia-hybrid' });
    expect(search.body).toEqual({
      size: 7,
      _source: { excludes: ['vector'] },
      query: {
        hybrid: {
          queries: [
            {
              bool: {
                should: [{ match: { source: { query: 'casa' } } }, { match: { 'source.ngram': { query: 'casa', boost: 0.5 } } }],
                minimum_should_match: 1,
                filter: [{ term: { agent_id: 'alice' } }],
              },
            },
            { knn: { vector: { vector: [0, 1, 0], k: 7, filter: { term: { agent_id: 'alice' } } } } },
          ],
        },
      },
    });
    // the pipeline is installed once
    await adapter.search('alice', 'casa', 7, { vector: [0, 1, 0] });
    expect(double.find('PUT', /^\/_search\/pipeline\//)).toHaveLength(1);
  });

  it('sends a plain bool query (no pipeline) without a query vector, on the requested side', async () => {
    await adapter.search('alice', 'wasi', 3, { side: 'target' });
    const [search] = double.find('POST', /\/_search$/);
    expect(search.query).toEqual({ routing: 'alice', ignore_unavailable: 'true' });
    expect(search.body).toEqual({
      size: 3,
      _source: { excludes: ['vector'] },
      query: {
        bool: {
          should: [{ match: { target: { query: 'wasi' } } }, { match: { 'target.ngram': { query: 'wasi', boost: 0.5 } } }],
          minimum_should_match: 1,
          filter: [{ term: { agent_id: 'alice' } }],
        },
      },
    });
    expect(double.find('PUT', /^\/_search\/pipeline\//)).toHaveLength(0);
  });

  it('deletes by query across every pair index, routed and filtered by agent', async () => {
    await adapter.remove('alice', ['p1', 'p2']);
    await adapter.dropAgent('alice');
    const [remove, drop] = double.find('POST', /_delete_by_query$/);
    for (const r of [remove, drop]) {
      expect(r.path).toBe('/gaia-pairs-*/_delete_by_query');
      expect(r.query).toEqual({ routing: 'alice', conflicts: 'proceed', refresh: 'true', allow_no_indices: 'true', ignore_unavailable: 'true' });
    }
    expect(remove.body).toEqual({ query: { bool: { filter: [{ term: { agent_id: 'alice' } }, { terms: { pair_id: ['p1', 'p2'] } }] } } });
    expect(drop.body).toEqual({ query: { bool: { filter: [{ term: { agent_id: 'alice' } }] } } });
  });

  it('sends no request for empty upserts, removals or queries', async () => {
    await adapter.upsert('alice', []);
    await adapter.remove('alice', []);
    expect(await adapter.search('alice', '   ', 5)).toEqual([]);
    expect(await adapter.search('alice', 'casa', 0)).toEqual([]);
    expect(double.requests).toHaveLength(0);
  });

  it('surfaces bulk item failures as an error', async () => {
    // Another writer installed a template without the vector field: the strict mapping rejects our documents.
    await client.indices.putIndexTemplate({
      name: 'legacy',
      body: {
        index_patterns: ['gaia-pairs-es-qu'],
        priority: 500,
        template: { mappings: { dynamic: 'strict', properties: { agent_id: { type: 'keyword' } } } },
      } as never,
    });
    await expect(adapter.upsert('alice', [{ id: 'p1', source: 'a', target: 'b' }])).rejects.toThrow(
      /bulk indexing failed for 1 pair\(s\): strict_dynamic_mapping_exception/,
    );
  });

  it('refuses weights that do not sum to 1', () => {
    expect(() => new OpenSearchRetrievalAdapter(client, { hybridWeights: [0.5, 0.6] })).toThrow(/sum to 1/);
  });
});

describe('OpenSearchWireDouble enforces the documented formats', () => {
  let double: OpenSearchWireDouble;
  let url: string;

  beforeEach(async () => {
    double = new OpenSearchWireDouble();
    url = await double.start();
  });
  afterEach(() => double.stop());

  const call = async (method: string, path: string, body?: unknown, contentType = 'application/json') => {
    const res = await fetch(url + path, {
      method,
      headers: { 'content-type': contentType },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const template = (mappings: unknown, settings: unknown = { index: { knn: true } }) => ({ index_patterns: ['t'], template: { settings, mappings } });

  it('rejects a pipeline whose weights do not sum to 1 and unknown techniques', async () => {
    const bad = (normalization: unknown, weights: number[]) => ({
      phase_results_processors: [{ 'normalization-processor': { normalization, combination: { technique: 'arithmetic_mean', parameters: { weights } } } }],
    });
    expect((await call('PUT', '/_search/pipeline/p', bad({ technique: 'min_max' }, [0.5, 0.6]))).status).toBe(400);
    expect((await call('PUT', '/_search/pipeline/p', bad({ technique: 'minmax' }, [0.5, 0.5]))).status).toBe(400);
    expect((await call('PUT', '/_search/pipeline/p', bad({ technique: 'min_max' }, [0.5, 0.5]))).status).toBe(200);
  });

  it('rejects templates with a bad knn field, a missing index.knn, an undefined analyzer or a too wide n-gram', async () => {
    const knn = { properties: { v: { type: 'knn_vector', dimension: 3, method: { name: 'hnsw', space_type: 'cosine', engine: 'lucene' } } } };
    expect((await call('PUT', '/_index_template/t', template(knn))).body.error.type).toBe('mapper_parsing_exception');
    const noKnn = { properties: { v: { type: 'knn_vector', dimension: 3 } } };
    expect((await call('PUT', '/_index_template/t', template(noKnn, {}))).status).toBe(400);
    expect((await call('PUT', '/_index_template/t', template({ properties: { s: { type: 'text', analyzer: 'nope' } } }))).status).toBe(400);
    const wide = {
      index: { knn: true },
      analysis: { filter: { g: { type: 'ngram', min_gram: 2, max_gram: 5 } }, analyzer: { a: { type: 'custom', tokenizer: 'standard', filter: ['g'] } } },
    };
    expect((await call('PUT', '/_index_template/t', template({}, wide))).body.error.reason).toMatch(/max_ngram_diff/);
    expect((await call('PUT', '/_index_template/t', { index_patterns: ['t'], mappings: {} })).status).toBe(400);
  });

  it('rejects bulk bodies that are not NDJSON, lack the final newline, or miss a required routing', async () => {
    expect((await call('PUT', '/_index_template/t', template({ _routing: { required: true }, properties: { a: { type: 'keyword' } } }))).status).toBe(200);
    const lines = '{"index":{"_index":"t","_id":"1"}}\n{"a":"x"}\n';
    expect((await call('POST', '/_bulk', lines, 'application/json')).status).toBe(406);
    expect((await call('POST', '/_bulk', lines.trimEnd(), 'application/x-ndjson')).status).toBe(400);
    const res = await call('POST', '/_bulk', lines, 'application/x-ndjson');
    expect(res.body.errors).toBe(true);
    expect(res.body.items[0].index.error.type).toBe('routing_missing_exception');
  });

  it('keeps writes invisible until a refresh', async () => {
    await call('POST', '/_bulk', '{"index":{"_index":"x","_id":"1"}}\n{"a":"hola"}\n', 'application/x-ndjson');
    expect((await call('POST', '/x/_search', { query: { match: { a: 'hola' } } })).body.hits.hits).toHaveLength(0);
    await call('POST', '/x/_refresh');
    expect((await call('POST', '/x/_search', { query: { match: { a: 'hola' } } })).body.hits.hits).toHaveLength(1);
  });

  it('rejects a hybrid query without a normalization pipeline, or with a weight count that does not match', async () => {
    await call('POST', '/_bulk?refresh=true', '{"index":{"_index":"x","_id":"1"}}\n{"a":"hola"}\n', 'application/x-ndjson');
    const hybrid = { query: { hybrid: { queries: [{ match: { a: 'hola' } }, { match_all: {} }, { match: { a: 'chau' } }] } } };
    expect((await call('POST', '/x/_search', hybrid)).status).toBe(400);
    await call('PUT', '/_search/pipeline/p', {
      phase_results_processors: [{ 'normalization-processor': { combination: { parameters: { weights: [0.5, 0.5] } } } }],
    });
    const res = await call('POST', '/x/_search?search_pipeline=p', hybrid);
    expect(res.status).toBe(400);
    expect(res.body.error.reason).toMatch(/number of weights/);
    expect((await call('POST', '/x/_search?search_pipeline=missing', hybrid)).status).toBe(404);
    const nested = { query: { bool: { must: [{ hybrid: { queries: [{ match_all: {} }] } }] } } };
    expect((await call('POST', '/x/_search?search_pipeline=p', nested)).status).toBe(400);
  });
});

describe('matchedTerms', () => {
  it('returns query words present in the text, accent-insensitive, once, as written in the query', () => {
    expect(matchedTerms('Río río casa', 'Los niños juegan en el rio')).toEqual(['río']);
    expect(matchedTerms('wasi', 'Wasiqa hatunmi')).toEqual([]);
  });
});
