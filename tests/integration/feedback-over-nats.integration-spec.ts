import { randomUUID } from 'node:crypto';
import { unzipSync } from 'fflate';
import { AgentsModule } from '@gaia/agents/feature';
import { agentsSchema } from '@gaia/agents/data-access';
import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import { withCorrections } from '@gaia/retrieval/feature';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { createTestApp, type TestApp } from '@gaia/testing';
import { RpcAgentFeedbackSource } from '@gaia/translation/data-access';
import { createAgent } from '../api/support/agents';

const NATS = { NATS_URL: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222' };
/** NATS refuses a message above 1 MiB (max_payload): this agent's feedback is about 1.5 MB. */
const CORRECTIONS = 1500;
const TERMS = 300;
const TEXT_CHARS = 500;

/**
 * An agent's corrections and glossary cross the wire between services (translation's feedback cache, retrieval's
 * learning runs, ingestion's dataset zip). Over the real NATS broker, feedback larger than one message still
 * arrives whole, and a dataset download whose corrections cannot be read fails instead of leaving them out.
 */
describe('agent feedback over NATS', () => {
  describe('an agent with more feedback than one NATS message holds', () => {
    let t: TestApp;
    let rpc: RpcClient;
    let agentId: string;

    beforeAll(async () => {
      t = await createTestApp({
        schemas: [agentsSchema, ingestionSchema],
        consumers: ['agents', 'ingestion'],
        imports: [AgentsModule, IngestionModule],
        transport: 'nats',
        env: NATS,
      });
      rpc = t.app.get<RpcClient>(RPC_CLIENT);
      const agent = await createAgent(t.app, {
        ownerId: 'owner-1',
        ownerEmail: 'owner@gaia.test',
        srcLang: 'es',
        tgtLang: 'qu',
        customPrompt: 'Spanish to Quechua',
      });
      agentId = agent.id;
      await t.dataSource.query(
        `INSERT INTO agent_correction (id, agent_id, source, translation, corrected, author_uid, author_email, created_at)
         SELECT 'c' || i, $1, i || ' ' || repeat('s', $2), '', i || ' ' || repeat('t', $2), 'owner-1', 'owner@gaia.test', now() - i * interval '1 second'
           FROM generate_series(1, $3) AS i`,
        [agentId, TEXT_CHARS, CORRECTIONS],
      );
      await t.dataSource.query(
        `INSERT INTO agent_glossary_term (id, agent_id, term, term_key, translation, note, case_sensitive, created_at, updated_at)
         SELECT 'g' || i, $1, 'term ' || i, 'term ' || i, 'rimay ' || i, '', false, now(), now() FROM generate_series(1, $2) AS i`,
        [agentId, TERMS],
      );
      await t.dataSource.query(
        `INSERT INTO ingestion_task (id, agent_id, owner_id, mode, src_lang, tgt_lang, status, total_files) VALUES ($1, $2, 'owner-1', 'create', 'es', 'qu', 'COMPLETED', 0)`,
        [randomUUID(), agentId],
      );
    });
    afterAll(() => t?.close());

    it("translation's feedback source reads every correction and term", async () => {
      const f = await new RpcAgentFeedbackSource(rpc).load(agentId);
      expect(f.corrections).toHaveLength(CORRECTIONS);
      expect(f.corrections[0].id).toBe('c1'); // newest first
      expect(new Set(f.corrections.map((c) => c.id)).size).toBe(CORRECTIONS);
      expect(f.glossary).toHaveLength(TERMS);
      expect(new Set(f.glossary.map((g) => g.term)).size).toBe(TERMS);
    });

    it("retrieval's learning run folds every correction in", async () => {
      const jsonl = Buffer.from(await withCorrections(rpc, agentId, Buffer.from('{"source":"a","target":"b"}\n'))).toString('utf8');
      expect(jsonl.trim().split('\n')).toHaveLength(1 + CORRECTIONS);
    });

    it('the dataset zip carries every correction', async () => {
      const { key } = await rpc.call('ingestion.prepare-download.v1', { agentId });
      const zip = unzipSync(await t.app.get<FileStorage>(FILE_STORAGE).get(key));
      const lines = Buffer.from(zip['corrections.jsonl']).toString('utf8').trim().split('\n');
      expect(lines).toHaveLength(CORRECTIONS);
      expect(JSON.parse(lines[0])).toMatchObject({ source: `${CORRECTIONS} ${'s'.repeat(TEXT_CHARS)}` }); // oldest first
    });
  });

  describe('a dataset download while the agents service cannot answer', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ schemas: [agentsSchema, ingestionSchema], consumers: ['ingestion'], imports: [IngestionModule], transport: 'nats', env: NATS });
    });
    afterAll(() => t?.close());

    it('fails instead of leaving corrections.jsonl out', async () => {
      const agentId = randomUUID();
      await t.dataSource.query(
        `INSERT INTO ingestion_task (id, agent_id, owner_id, mode, src_lang, tgt_lang, status, total_files) VALUES ($1, $2, 'owner-1', 'create', 'es', 'qu', 'COMPLETED', 0)`,
        [randomUUID(), agentId],
      );
      const failed = await t.app
        .get<RpcClient>(RPC_CLIENT)
        .call('ingestion.prepare-download.v1', { agentId })
        .then(
          () => null,
          (e: { status: number; code: string; details?: { cause?: string } }) => e,
        );
      // the agents service did not answer (NATS no responders: 503 since 1a5a737): no dataset without its corrections
      expect(failed).toMatchObject({ status: 503, code: 'service_unavailable' });
      expect(failed?.details?.cause).toContain('agents.corrections-export-page.v1');
      expect(await t.app.get<FileStorage>(FILE_STORAGE).list(`ingestion/${agentId}/downloads/`)).toEqual([]);
    });
  });
});
