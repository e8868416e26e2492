import { AGENT_REPOSITORY, agentsSchema, type AgentRepositoryPort } from '@gaia/agents/data-access';
import { AGENT_CHANGES, type AgentChangesPort } from '@gaia/agents/data-access';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { createTestApp, waitFor, type TestApp } from '@gaia/testing';
import { AgentQueriesUseCase } from './agent-queries/agent-queries.use-case';
import { AgentsModule } from './agents.module';
import { CreateAgentUseCase } from './create-agent/create-agent.use-case';

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'allowed',
    (e: { message: string }) => e.message,
  );

let a: TestApp;
let b: TestApp;

/** A public agent created on replica a, once `replica` listens for row changes. */
async function publicAgentHeardBy(replica: TestApp, owner: { uid: string; email: string }) {
  const agent = await a.app.get(CreateAgentUseCase).execute({
    ownerId: owner.uid,
    ownerEmail: owner.email,
    srcLang: 'es',
    tgtLang: 'gn',
    customPrompt: '',
    coreMemory: '',
    processingTaskId: null,
    filenames: [],
    engine: 'builtin',
    public: true,
  });
  await waitFor(
    () => Promise.resolve(replica.app.get<AgentChangesPort>(AGENT_CHANGES).watching),
    (w) => w,
    { what: 'the replica listening' },
  );
  return agent;
}

/** The access check of every translation reads the agent row from memory; a change on any replica drops it. */
describe('agent rows cached across replicas (Postgres LISTEN/NOTIFY)', () => {
  beforeAll(async () => {
    a = await createTestApp({ schemas: [agentsSchema], consumers: ['agents'], imports: [AgentsModule] });
    b = await createTestApp({ schemas: [agentsSchema], consumers: [], imports: [AgentsModule], database: a.db });
  });
  afterAll(async () => {
    await b?.close({ keepDatabase: true });
    await a?.close();
  });

  it('answers repeated access checks without reading the row again, and sees a change made anywhere', async () => {
    const agent = await publicAgentHeardBy(b, { uid: 'owner-1', email: 'o@example.org' });
    const repo = b.app.get<AgentRepositoryPort>(AGENT_REPOSITORY);
    let reads = 0;
    const findById = repo.findById.bind(repo);
    repo.findById = (...args: Parameters<AgentRepositoryPort['findById']>) => {
      reads++;
      return findById(...args);
    };
    const queries = b.app.get(AgentQueriesUseCase);
    for (let i = 0; i < 5; i++) expect((await queries.access(agent.id, null, 'read', true)).record).toMatchObject({ id: agent.id, public: true });
    expect(reads).toBe(1);
    // Any writer (here plain SQL, as the operator CLI would): replica b refuses the stranger once the notice arrived.
    await a.dataSource.query(`UPDATE agent SET public = false WHERE id = $1`, [agent.id]);
    expect(
      await waitFor(
        () => outcome(queries.access(agent.id, null, 'read')),
        (o) => o !== 'allowed',
        { what: 'private agent seen by replica b' },
      ),
    ).toBe('Model not found.');
  });

  it('on the replica that made a change, the very next access check reads it (no window for a removed right)', async () => {
    const rpc = a.app.get<RpcClient>(RPC_CLIENT);
    const owner = { uid: 'owner-2', email: 'o2@example.org' };
    const agent = await publicAgentHeardBy(a, owner);
    const stranger = () => outcome(rpc.call('agents.access.v1', { agentId: agent.id, viewer: null, need: 'read' }));
    for (let round = 0; round < 20; round++) {
      const pub = round % 2 === 1;
      expect(await stranger()).toBe(pub ? 'Model not found.' : 'allowed'); // cached now
      await rpc.call('agents.set-visibility.v1', { agentId: agent.id, viewer: owner, public: pub });
      expect(await stranger()).toBe(pub ? 'allowed' : 'Model not found.');
    }
  });
});
