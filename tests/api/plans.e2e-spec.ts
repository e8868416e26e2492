import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApp } from '@gaia/testing';
import { signUp, startApi } from './support/api-app';

const root = join(__dirname, '../..');

describe('plans as a product: Get Started, the operator grants, the usage API bills the month', () => {
  let t: TestApp & { url: string };
  const work = mkdtempSync(join(tmpdir(), 'gaia-plans-'));
  const gaia = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) =>
      execFile(
        process.execPath,
        [join(root, 'tools/gaia.mjs'), ...args],
        {
          cwd: root,
          env: {
            ...process.env,
            DATABASE_URL: t.db.url,
            DATA_DIR: work,
            FILE_STORAGE_DIR: join(work, 'files'),
            MESSAGING_TRANSPORT: 'inprocess',
            DATABASE_POOL_SIZE: '4',
            LOG_LEVEL: 'warn',
          },
        },
        (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );

  beforeAll(async () => {
    t = await startApi();
  });
  afterAll(async () => {
    await t.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('Free starts at once; Starter is a request the operator sees (gaia plans requests) and grants (gaia plan set)', async () => {
    const u = await signUp(t.url, 'plans');
    const free = await u.agent.post('/api/plans/request').set('x-csrf-token', u.csrf).send({ plan: 'free' }).expect(200);
    expect(free.body).toMatchObject({ status: 'active', plan: { id: 'free' }, request: null });

    const asked = await u.agent.post('/api/plans/request').set('x-csrf-token', u.csrf).send({ plan: 'starter' }).expect(200);
    expect(asked.body).toMatchObject({ status: 'requested', plan: { id: 'free' }, request: { plan: 'starter', status: 'pending' } });
    expect(JSON.stringify(asked.body)).not.toContain(u.email);
    await u.agent.post('/api/plans/request').set('x-csrf-token', u.csrf).send({ plan: 'platinum' }).expect(400);
    // Still Free until granted.
    expect((await u.agent.get('/api/usage/summary').expect(200)).body).toMatchObject({ plan: 'Free', period: { included_words: null, daily_api_calls: 10 } });

    const listed = await gaia('plans', 'requests', '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ email: u.email, plan: 'starter', status: 'pending' })]);

    const granted = await gaia('plan', 'set', u.email, 'starter', '--json');
    expect(granted.code).toBe(0);
    expect(JSON.parse(await gaia('plans', 'requests', '--json').then((r) => r.stdout))).toEqual([]);

    const summary = (await u.agent.get('/api/usage/summary').expect(200)).body;
    expect(summary.plan).toBe('Starter');
    // Granted today: the month is prorated from now on (price and included words by the time left).
    const segments = summary.period.segments as { plan: string; share: number; included_words: number | null }[];
    expect(segments.map((s) => s.plan)).toEqual(segments.length === 2 ? ['free', 'starter'] : ['starter']);
    const starter = segments[segments.length - 1];
    expect(starter.included_words).toBe(Math.floor(5_000 * starter.share));
    expect(summary.period).toMatchObject({ words: 0, included_words: starter.included_words, overage_words: 0 });
  });

  it('asking without a session is refused', async () => {
    const res = await fetch(`${t.url}/api/plans/request`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"plan":"starter"}' });
    expect(res.status).toBe(401);
  });
});
