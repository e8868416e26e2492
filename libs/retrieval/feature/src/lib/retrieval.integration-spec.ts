import type { DataSource } from 'typeorm';
import { decodeAgentArtifacts, retrievalSchema, type RetrievalStateRepository } from '@gaia/retrieval/data-access';
import { deserializeModel, HybridIndex } from '@gaia/engine';
import { OUTBOX, RPC_CLIENT, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { ManualClock } from '@gaia/shared/kernel';
import { createTestApp, syntheticCorpus, toJsonl, type TestApp } from '@gaia/testing';
import { RetrievalModule } from './retrieval.module';
import { RETRIEVAL_STATE } from './retrieval.tokens';

async function events(ds: DataSource, topic: string): Promise<{ payload: Record<string, unknown> }[]> {
  return ds.query(`SELECT payload FROM outbox_event WHERE topic = $1 ORDER BY seq`, [topic]);
}

describe('retrieval service (real Postgres, in-process messaging)', () => {
  let t: TestApp;
  let storage: FileStorage;
  beforeAll(async () => {
    t = await createTestApp({ schemas: [retrievalSchema], consumers: ['retrieval'], imports: [RetrievalModule] });
    storage = t.app.get(FILE_STORAGE);
  });
  afterAll(() => t.close());

  /** The learned state of an agent as retrieval stores it (null once forgotten). */
  const state = (agentId: string) => t.app.get<RetrievalStateRepository>(RETRIEVAL_STATE).get(t.dataSource.manager, agentId);

  async function storePairs(agentId: string, version: string, n: number) {
    const pairs = syntheticCorpus(n, version.length);
    await storage.put(`agents/${agentId}/dataset/pairs-${version}.jsonl`, toJsonl(pairs));
    await t.dataSource.transaction((em) =>
      t.app.get<Outbox>(OUTBOX).add(em, 'ingestion.pairs-stored.v1', {
        agentId,
        taskId: `task-${version}`,
        srcLang: 'es',
        tgtLang: 'qx',
        pairsKey: `agents/${agentId}/dataset/pairs-${version}.jsonl`,
        addedKey: `agents/${agentId}/dataset/pairs-${version}.jsonl`,
        pairCount: n,
        addedCount: n,
        version,
      }),
    );
    return pairs;
  }

  it('learns an agent from stored pairs: artifact, summary, learned event, hybrid search', async () => {
    await storePairs('agent-1', '1', 300);
    await t.drain();
    const learned = await events(t.dataSource, 'retrieval.agent-learned.v1');
    // ready first (no report yet), then the quality report measured after it, as its own event
    expect(learned).toHaveLength(1);
    expect(learned[0].payload).toMatchObject({
      agentId: 'agent-1',
      version: '1',
      taskId: 'task-1',
      pairCount: 300,
      artifactKey: 'agents/agent-1/artifacts/v1.bin',
    });
    expect(learned[0].payload).not.toHaveProperty('quality');
    expect(String(learned[0].payload['learnedSummary']).length).toBeGreaterThan(20);
    const measured = await events(t.dataSource, 'retrieval.agent-quality-measured.v1');
    expect(measured.map((e) => e.payload)).toEqual([
      { ...learned[0].payload, quality: { measured: true, heldOut: 20, scores: expect.any(Object), evaluationMs: expect.any(Number) } },
    ]);
    const progress = await events(t.dataSource, 'retrieval.build-progress.v1');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)?.payload['fraction']).toBe(1);

    const art = decodeAgentArtifacts(await storage.get('agents/agent-1/artifacts/v1.bin'));
    expect(deserializeModel(art.model).stats.pairs).toBe(300);
    // the artifact was re-saved with the confidence calibration fitted by the report
    expect(deserializeModel(art.model).calibration?.forward?.knots.length).toBeGreaterThan(0);
    expect(HybridIndex.deserialize(art.index).size).toBe(300);
    // the index is stored once, inside the artifact; the embedded retrieval backend reads it from there
    expect(await storage.exists('retrieval/agent-1/index.bin')).toBe(false);

    const rpc = t.app.get<RpcClient>(RPC_CLIENT);
    const res = await rpc.call('retrieval.search.v1', { agentId: 'agent-1', query: 'el perro bebe agua', k: 3, side: 'source' });
    expect(res.version).toBe('1');
    expect(res.hits).toHaveLength(3);
    expect(res.hits[0].source.toLowerCase()).toContain('perro');
    expect(await state('agent-1')).toMatchObject({ status: 'ready', readyVersion: '1', pairCount: 300 });
  });

  it('ends on the newest version when uploads overlap, building each version at most once', async () => {
    await storePairs('agent-2', '1', 120);
    await storePairs('agent-2', '22', 150);
    await t.drain();
    const learned = (await events(t.dataSource, 'retrieval.agent-learned.v1')).filter((e) => e.payload['agentId'] === 'agent-2');
    const versions = learned.map((e) => e.payload['version']);
    expect(versions.at(-1)).toBe('22');
    // each version announced once at most; the newest one's report follows (too small to measure: not measured)
    expect(new Set(versions).size).toBe(versions.length);
    const measured = (await events(t.dataSource, 'retrieval.agent-quality-measured.v1')).filter((e) => e.payload['agentId'] === 'agent-2');
    expect(measured.filter((e) => e.payload['version'] === '22').map((e) => e.payload['quality'])).toEqual([expect.objectContaining({ measured: false })]);
    expect(await state('agent-2')).toMatchObject({ status: 'ready', readyVersion: '22', pairCount: 150 });
  });

  it('forgets everything about a deleted agent', async () => {
    await storePairs('agent-3', '1', 80);
    await t.drain();
    await t.dataSource.transaction((em) =>
      t.app
        .get<Outbox>(OUTBOX)
        .add(em, 'agents.agent-deleted.v1', { agentId: 'agent-3', ownerId: 'u', sharedWithEmails: [], deletedAt: new Date().toISOString() }),
    );
    await t.drain();
    expect(await storage.exists('agents/agent-3/artifacts/v1.bin')).toBe(false);
    expect(await state('agent-3')).toBeNull();
  });

  it('reports build progress at most once per second of the CLOCK: a clock that stands still gives only the start and the end', async () => {
    const frozen = await createTestApp({ schemas: [retrievalSchema], consumers: ['retrieval'], imports: [RetrievalModule], clock: new ManualClock() });
    try {
      const pairs = syntheticCorpus(300, 1);
      await frozen.app.get<FileStorage>(FILE_STORAGE).put('agents/agent-9/dataset/pairs-1.jsonl', toJsonl(pairs));
      await frozen.dataSource.transaction((em) =>
        frozen.app.get<Outbox>(OUTBOX).add(em, 'ingestion.pairs-stored.v1', {
          agentId: 'agent-9',
          taskId: 'task-1',
          srcLang: 'es',
          tgtLang: 'qx',
          pairsKey: 'agents/agent-9/dataset/pairs-1.jsonl',
          addedKey: 'agents/agent-9/dataset/pairs-1.jsonl',
          pairCount: 300,
          addedCount: 300,
          version: '1',
        }),
      );
      await frozen.drain();
      const progress = await events(frozen.dataSource, 'retrieval.build-progress.v1');
      expect(progress.map((e) => e.payload['fraction'])).toEqual([0, 1]);
    } finally {
      await frozen.close();
    }
  });
});
