/**
 * The retrieval contract against a real OpenSearch (2.19+ / 3.x with the k-NN and neural-search plugins).
 * Runs only when OPENSEARCH_URL is set (OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD optional); each run
 * uses its own index prefix and search pipeline and deletes them afterwards.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@opensearch-project/opensearch';
import { OpenSearchRetrievalAdapter, createOpenSearchClient } from './opensearch-retrieval.adapter';
import { CONTRACT_DIMENSION, CONTRACT_LANGUAGES, describeRetrievalContract } from './testing/retrieval-index.contract';

const url = process.env['OPENSEARCH_URL'];

if (url) {
  describeRetrievalContract(`OpenSearch at ${url}`, () => {
    const prefix = `gaia-contract-${randomUUID().slice(0, 8)}`;
    let client: Client | undefined;
    return {
      async create() {
        client = createOpenSearchClient({ url, username: process.env['OPENSEARCH_USERNAME'], password: process.env['OPENSEARCH_PASSWORD'] });
        return new OpenSearchRetrievalAdapter(client, {
          indexPrefix: prefix,
          searchPipeline: `${prefix}-hybrid`,
          vectorDimension: CONTRACT_DIMENSION,
          shards: 1,
          replicas: 0,
          languagePairOf: async (agentId) => CONTRACT_LANGUAGES[agentId] ?? { source: 'und', target: 'und' },
        });
      },
      async cleanup() {
        if (!client) return;
        await client.indices.delete({ index: `${prefix}-*`, ignore_unavailable: true });
        for (const name of ['es-qu', 'en-ay', 'und-und']) {
          await client.indices.deleteIndexTemplate({ name: `${prefix}-${name}` }).catch(() => undefined);
        }
        await client.searchPipeline.delete({ id: `${prefix}-hybrid` }).catch(() => undefined);
        await client.close();
      },
    };
  });
} else {
  describe.skip('RetrievalIndexPort contract: real OpenSearch (skipped: set OPENSEARCH_URL to run it)', () => {
    it('runs the retrieval contract against a real cluster', () => undefined);
  });
  console.info('OpenSearch contract suite skipped: set OPENSEARCH_URL (and OPENSEARCH_USERNAME/OPENSEARCH_PASSWORD) to run it.');
}
