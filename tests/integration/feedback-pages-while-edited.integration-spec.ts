import { AgentsModule } from '@gaia/agents/feature';
import { agentsSchema } from '@gaia/agents/data-access';
import { withCorrections } from '@gaia/retrieval/feature';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { createTestApp, type TestApp } from '@gaia/testing';
import { createAgent } from '../api/support/agents';

/** About 1.2 MB of corrections: five pages of agents.feedback-page.v1 / agents.corrections-export-page.v1. */
const CORRECTIONS = 300;
const TEXT_CHARS = 2000;

/**
 * The paged feedback RPCs continue after the id of the last row a page carried. When that row is deleted between
 * two pages, the next page cannot find where to continue: a reader that does not start over on the version change
 * would stop there and silently miss every older correction.
 */
describe('agent feedback read page by page while a correction is deleted', () => {
  let t: TestApp;
  let rpc: RpcClient;
  let agentId: string;

  beforeAll(async () => {
    t = await createTestApp({ schemas: [agentsSchema], consumers: ['agents'], imports: [AgentsModule] });
    rpc = t.app.get<RpcClient>(RPC_CLIENT);
    const agent = await createAgent(t.app, { ownerId: 'owner-1', ownerEmail: 'owner@gaia.test', srcLang: 'es', tgtLang: 'qu' });
    agentId = agent.id;
  });
  afterAll(() => t?.close());

  beforeEach(async () => {
    await t.dataSource.query(`DELETE FROM agent_correction WHERE agent_id = $1`, [agentId]);
    await t.dataSource.query(
      `INSERT INTO agent_correction (id, agent_id, source, translation, corrected, author_uid, author_email, created_at)
       SELECT 'c' || i, $1, i || ' ' || repeat('s', $2), '', i || ' ' || repeat('t', $2), 'owner-1', 'owner@gaia.test', now() - i * interval '1 second'
         FROM generate_series(1, $3) AS i`,
      [agentId, TEXT_CHARS, CORRECTIONS],
    );
    await t.dataSource.query(`UPDATE agent SET feedback_version = feedback_version + 1 WHERE id = $1`, [agentId]);
  });

  /** Deletes a correction the way the agents service does (row gone, feedback version bumped). */
  const deleteCorrection = async (id: string): Promise<void> => {
    await t.dataSource.query(`DELETE FROM agent_correction WHERE agent_id = $1 AND id = $2`, [agentId, id]);
    await t.dataSource.query(`UPDATE agent SET feedback_version = feedback_version + 1 WHERE id = $1`, [agentId]);
  };

  it('a page of the dataset export answers the feedback version, so its reader sees a deletion between two pages', async () => {
    const first = await rpc.call('agents.corrections-export-page.v1', { agentId, cursor: null });
    expect(first.next).not.toBeNull();
    await deleteCorrection(first.corrections[first.corrections.length - 1].id);
    const second = await rpc.call('agents.corrections-export-page.v1', { agentId, cursor: first.next });
    expect(second.version).not.toBe(first.version);
  });

  it("retrieval's learning run folds in every correction left when the last one a page carried is deleted before the next page", async () => {
    let deleted = false;
    const deletingAfterFirstPage: Pick<RpcClient, 'call'> = {
      call: (async (name: 'agents.feedback-page.v1', request: { agentId: string; cursor: string | null }) => {
        const page = await rpc.call(name, request);
        if (!deleted && page.next) {
          deleted = true;
          await deleteCorrection(page.corrections[page.corrections.length - 1].id);
        }
        return page;
      }) as RpcClient['call'],
    };
    const jsonl = Buffer.from(await withCorrections(deletingAfterFirstPage, agentId, new Uint8Array())).toString('utf8');
    expect(deleted).toBe(true);
    expect(jsonl.trim().split('\n').length).toBe(CORRECTIONS - 1);
  });
});
