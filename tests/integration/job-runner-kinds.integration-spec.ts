import type { DataSource } from 'typeorm';
import { createDataSource } from '@gaia/shared/database';
import { JobRunner, MessagingActivity, messagingSchema, PostgresJobQueue } from '@gaia/shared/messaging';
import { createTestDatabase, waitFor, type TestDatabase } from '@gaia/testing';

/**
 * One process hosts several kinds of durable jobs (`npm start` hosts every service's): long jobs of one kind (a big file
 * being translated) must not hold the runner's slots while jobs of another kind (a new agent's upload) wait behind them.
 */
describe('the job runner on the real Postgres: kinds do not wait for one another', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let runner: JobRunner;
  beforeAll(async () => {
    db = await createTestDatabase({ schemas: [] });
    ds = createDataSource({ url: db.url, schemas: [messagingSchema] });
    await ds.initialize();
  });
  afterAll(async () => {
    await runner?.stop();
    await ds?.destroy();
    await db?.drop();
  });

  it('a job of one kind runs while every slot of another kind is taken by jobs that have not finished', async () => {
    const CONCURRENCY = 2;
    runner = new JobRunner(ds, new MessagingActivity(), { pollMs: 50, concurrency: CONCURRENCY });
    let releaseLong = () => {};
    const longMayEnd = new Promise<void>((r) => (releaseLong = r));
    const started: string[] = [];
    runner.register('test.long', async (payload) => {
      started.push(`long:${(payload as { n: number }).n}`);
      await longMayEnd;
    });
    runner.register('test.short', async () => {
      started.push('short');
    });
    const queue = new PostgresJobQueue();
    await ds.transaction(async (em) => {
      for (let n = 0; n <= CONCURRENCY; n++) await queue.enqueue(em, 'test.long', { n });
    });
    runner.start();
    await waitFor(
      async () => started.filter((s) => s.startsWith('long')).length,
      (n) => n === CONCURRENCY,
      { what: 'the long jobs to take their slots' },
    );
    await ds.transaction((em) => queue.enqueue(em, 'test.short', {}));
    runner.kick();
    const short = await waitFor(
      async () => (await ds.query(`SELECT status FROM job WHERE kind = 'test.short'`)) as Array<{ status: string }>,
      (rows) => rows[0]?.status === 'done',
      { what: 'the short job to run beside the long ones', timeoutMs: 20_000 },
    );
    expect(short).toEqual([{ status: 'done' }]);
    expect(started.filter((s) => s.startsWith('long'))).toHaveLength(CONCURRENCY); // the third long job still waits its turn
    releaseLong();
    await waitFor(
      async () => (await ds.query(`SELECT count(*)::int AS n FROM job WHERE status = 'done'`)) as Array<{ n: number }>,
      (rows) => rows[0].n === CONCURRENCY + 2,
      { what: 'every job to finish' },
    );
  });
});
