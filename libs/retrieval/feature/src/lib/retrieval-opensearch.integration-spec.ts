import { HybridIndex } from '@gaia/engine';
import { retrievalSchema } from '@gaia/retrieval/data-access';
import { OpenSearchWireDouble } from '@gaia/retrieval/data-access/testing';
import { OUTBOX, RPC_CLIENT, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { createTestApp, syntheticCorpus, toJsonl, type TestApp } from '@gaia/testing';
import { RetrievalModule } from './retrieval.module';

/** The retrieval service with RETRIEVAL_BACKEND=opensearch, against the OpenSearch wire double. */
describe('retrieval service on OpenSearch (wire double): BM25 + k-NN hybrid with the engine vectors', () => {
  let t: TestApp;
  const os = new OpenSearchWireDouble();
  beforeAll(async () => {
    const url = await os.start();
    t = await createTestApp({
      schemas: [retrievalSchema],
      consumers: ['retrieval'],
      imports: [RetrievalModule],
      env: { RETRIEVAL_BACKEND: 'opensearch', OPENSEARCH_URL: url },
    });
  });
  afterAll(async () => {
    await t.close();
    await os.stop();
  });

  it('indexes every pair with a vector of the engine dimension and searches with the query vector', async () => {
    const storage = t.app.get<FileStorage>(FILE_STORAGE);
    const pairs = syntheticCorpus(120, 7);
    await storage.put('agents/os-1/dataset/pairs-1.jsonl', toJsonl(pairs));
    await t.dataSource.transaction((em) =>
      t.app.get<Outbox>(OUTBOX).add(em, 'ingestion.pairs-stored.v1', {
        agentId: 'os-1',
        taskId: 't1',
        srcLang: 'es',
        tgtLang: 'qx',
        pairsKey: 'agents/os-1/dataset/pairs-1.jsonl',
        addedKey: 'agents/os-1/dataset/pairs-1.jsonl',
        pairCount: 120,
        addedCount: 120,
        version: '1',
      }),
    );
    await t.drain();

    const bulk = os.find('POST', /_bulk$/).flatMap((r) => r.body as Record<string, unknown>[]);
    const docs = bulk.filter((line) => 'vector' in line) as { vector: number[]; agent_id?: string }[];
    expect(docs).toHaveLength(120);
    expect(docs.every((d) => d.vector.length === HybridIndex.dimension)).toBe(true);

    const res = await t.app.get<RpcClient>(RPC_CLIENT).call('retrieval.search.v1', { agentId: 'os-1', query: 'el perro bebe agua', k: 3, side: 'source' });
    expect(res.version).toBe('1');
    const search = os.find('POST', /_search$/).at(-1)!;
    expect(search.query['search_pipeline']).toBeDefined();
    expect(JSON.stringify(search.body)).toContain('"knn"');
    expect(res.hits.length).toBeGreaterThan(0);
  });
});
