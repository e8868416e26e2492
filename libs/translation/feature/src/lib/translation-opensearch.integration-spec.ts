import { lastValueFrom, toArray } from 'rxjs';
import type { TranslationEventDto } from '@gaia/contracts';
import { deserializeModel, modelByteSize } from '@gaia/engine';
import { retrievalSchema } from '@gaia/retrieval/data-access';
import { OpenSearchWireDouble } from '@gaia/retrieval/data-access/testing';
import { RetrievalModule } from '@gaia/retrieval/feature';
import { OUTBOX, RPC_CLIENT, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { createTestApp, syntheticCorpus, toJsonl, type TestApp } from '@gaia/testing';
import {
  AGENT_DIRECTORY,
  AGENT_LOADER,
  decodeAgentArtifacts,
  type AgentDirectoryPort,
  type AgentLoader,
  type TranslationAgentProfile,
} from '@gaia/translation/data-access';
import { TranslationModule } from './translation.module';

class Directory implements AgentDirectoryPort {
  readonly profiles = new Map<string, TranslationAgentProfile>();
  async find(id: string) {
    return this.profiles.get(id) ?? null;
  }
}

/** RETRIEVAL_BACKEND=opensearch: the translation replica loads only the core memory and asks the retrieval service. */
describe('translation with the OpenSearch retrieval backend (wire double)', () => {
  let t: TestApp;
  const os = new OpenSearchWireDouble();
  const directory = new Directory();
  beforeAll(async () => {
    const url = await os.start();
    t = await createTestApp({
      schemas: [retrievalSchema],
      consumers: ['retrieval', 'translation', 'billing'],
      imports: [RetrievalModule, TranslationModule.forRoot({ directory: { provide: AGENT_DIRECTORY, useValue: directory }, llm: null })],
      env: { RETRIEVAL_BACKEND: 'opensearch', OPENSEARCH_URL: url },
    });
  });
  afterAll(async () => {
    await t.close();
    await os.stop();
  });

  it('takes the examples of a translation from the hybrid query of the retrieval service, not from a local index', async () => {
    const pairs = syntheticCorpus(150, 3);
    await t.app.get<FileStorage>(FILE_STORAGE).put('agents/os-tr/dataset/pairs-1.jsonl', toJsonl(pairs));
    await t.dataSource.transaction((em) =>
      t.app.get<Outbox>(OUTBOX).add(em, 'ingestion.pairs-stored.v1', {
        agentId: 'os-tr',
        taskId: 't1',
        srcLang: 'es',
        tgtLang: 'qx',
        pairsKey: 'agents/os-tr/dataset/pairs-1.jsonl',
        addedKey: 'agents/os-tr/dataset/pairs-1.jsonl',
        pairCount: 150,
        addedCount: 150,
        version: '1',
      }),
    );
    await t.drain();
    directory.profiles.set('os-tr', { id: 'os-tr', srcLang: 'es', tgtLang: 'qx', customPrompt: '', coreMemory: '', engine: 'builtin', artifactsVersion: '1' });
    const searchesBefore = os.find('POST', /_search$/).length;

    const text = pairs[0].source;
    const events = await lastValueFrom(
      t.app
        .get<RpcClient>(RPC_CLIENT)
        .stream('translation.translate.v1', {
          requestId: 'os-1',
          text,
          model_id: 'os-tr',
          src_lang: 'es',
          tgt_lang: 'qx',
          caller: { keyId: 'k', userId: null },
        })
        .pipe(toArray()),
    );
    const done = events.at(-1) as Extract<TranslationEventDto, { type: 'translation_complete' }>;
    expect(done.type).toBe('translation_complete');

    // one hybrid query went out for this translation: the agent's pairs, the request text, BM25 + k-NN
    const searches = os.find('POST', /_search$/).slice(searchesBefore);
    expect(searches).toHaveLength(1);
    const body = JSON.stringify(searches[0].body);
    expect(searches[0].query['search_pipeline']).toBeDefined();
    expect(body).toContain('"knn"');
    expect(body).toContain(JSON.stringify(text).slice(1, -1));
    expect(body).toContain('os-tr');
    // the loaded agent holds the core memory only: its size in the LRU is the model's, no index (pair texts, postings)
    const loader = t.app.get<AgentLoader>(AGENT_LOADER);
    expect(loader.isWarm('os-tr')).toBe(true);
    const artifact = decodeAgentArtifacts(await t.app.get<FileStorage>(FILE_STORAGE).get('agents/os-tr/artifacts/v1.bin'));
    expect(loader.stats().bytes).toBe(modelByteSize(deserializeModel(artifact.model)));
  });
});
