import { createHash, randomUUID } from 'node:crypto';
import type { MigrationInterface } from 'typeorm';
import { agentsSchema } from '@gaia/agents/data-access';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { createTestApp, type TestApp } from '@gaia/testing';
import { AgentsModule } from '../agents.module';
import { CreateAgentUseCase } from '../create-agent/create-agent.use-case';

const OWNER = { uid: 'tomb-owner', email: 'tomb-owner@gaia.test' };
const EDITOR_EMAIL = 'tomb-editor@gaia.test';

/** A deleted agent stays as a tombstone row: it keeps nothing personal, in particular not its editors' emails. */
describe('agent tombstones on the real Postgres', () => {
  let t: TestApp;
  let rpc: RpcClient;

  beforeAll(async () => {
    t = await createTestApp({ schemas: [agentsSchema], consumers: ['agents'], imports: [AgentsModule] });
    rpc = t.app.get<RpcClient>(RPC_CLIENT);
  });
  afterAll(() => t.close());
  const newAgent = () =>
    t.app.get(CreateAgentUseCase).execute({
      ownerId: OWNER.uid,
      ownerEmail: OWNER.email,
      srcLang: 'es',
      tgtLang: 'qu',
      customPrompt: 'Spanish to Quechua',
      coreMemory: '',
      processingTaskId: null,
      filenames: [],
      engine: 'builtin',
      public: false,
    });

  it("blanks the editors' emails of a deleted agent (the tombstone keeps only what stops it coming back)", async () => {
    const tokenHash = createHash('sha256').update(randomUUID()).digest('hex');
    await rpc.call('agents.team-invite.v1', { ownerId: OWNER.uid, name: 'Editor', email: EDITOR_EMAIL, tokenHash });
    await rpc.call('agents.team-accept.v1', { tokenHash, viewer: { uid: 'tomb-editor', email: EDITOR_EMAIL } });
    const agent = await newAgent();
    expect(agent.sharedWithEmails).toEqual([EDITOR_EMAIL]);

    await rpc.call('agents.delete.v1', { agentId: agent.id, viewer: OWNER });
    await t.drain();

    const [row] = await t.dataSource.query(`SELECT deleted_at, shared_with_emails FROM agent WHERE id = $1`, [agent.id]);
    expect(row.deleted_at).not.toBeNull();
    expect(row.shared_with_emails).toEqual([]);
    const events = await t.dataSource.query(`SELECT payload FROM outbox_event WHERE topic = 'agents.agent-deleted.v1' AND payload->>'agentId' = $1`, [
      agent.id,
    ]);
    expect(events.map((e: { payload: { sharedWithEmails: string[] } }) => e.payload.sharedWithEmails)).toEqual([[]]);
  });

  it('the migration blanks the emails of tombstones written before, not those of live agents', async () => {
    const [old, live] = [await newAgent(), await newAgent()];
    expect(live.sharedWithEmails).toEqual([EDITOR_EMAIL]);
    await t.dataSource.query(`UPDATE agent SET deleted_at = now() WHERE id = $1`, [old.id]); // a tombstone as deletion wrote it before
    const Migration = agentsSchema.migrations.find((m) => m.name === 'AgentsTombstoneEmails1795800000005') as new () => MigrationInterface;
    const runner = t.dataSource.createQueryRunner();
    try {
      await new Migration().up(runner);
    } finally {
      await runner.release();
    }
    const emails = async (id: string) => (await t.dataSource.query(`SELECT shared_with_emails FROM agent WHERE id = $1`, [id]))[0].shared_with_emails;
    expect(await emails(old.id)).toEqual([]);
    expect(await emails(live.id)).toEqual([EDITOR_EMAIL]);
  });
});
