import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, syntheticCorpus, type TestDatabase } from '@gaia/testing';

const root = join(__dirname, '../..');
/** Ingestion keeps each distinct pair once. */
const distinct = (pairs: { source: string; target: string }[]): number => new Set(pairs.map((p) => `${p.source}\t${p.target}`)).size;
const TRAIN = syntheticCorpus(300, 7).slice(0, 240);
const DEV = syntheticCorpus(300, 7).slice(240);
const MEMORY = syntheticCorpus(60, 11);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('operator command line (npx gaia) on a real Postgres', () => {
  let db: TestDatabase;
  let sql: Client;
  const work = mkdtempSync(join(tmpdir(), 'gaia-operator-'));
  const env = () => ({
    ...process.env,
    DATABASE_URL: db.url,
    DATA_DIR: join(work, 'data'),
    FILE_STORAGE_DIR: join(work, 'files'),
    MESSAGING_TRANSPORT: 'inprocess',
    DATABASE_POOL_SIZE: '4',
    LOG_LEVEL: 'warn',
  });
  const run = (cmd: string, args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      execFile(cmd, args, { cwd: root, env: env(), maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const gaia = (...args: string[]) => run(process.execPath, [join(root, 'tools/gaia.mjs'), ...args]);
  const gaiaJson = async <T>(...args: string[]): Promise<T> => {
    const r = await gaia(...args, '--json');
    if (r.code !== 0) throw new Error(`gaia ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  };
  const q = async <T>(text: string, params: unknown[] = []): Promise<T[]> => (await sql.query(text, params)).rows as T[];

  beforeAll(async () => {
    db = await createTestDatabase({ prefix: 'gaia_operator' });
    // A seed folder in the shared-task layout (train + held-out dev) and one in another format (TMX).
    const esXx = join(work, 'corpora/es-xx');
    mkdirSync(esXx, { recursive: true });
    writeFileSync(join(esXx, 'train.es'), TRAIN.map((p) => p.source).join('\n') + '\n');
    writeFileSync(join(esXx, 'train.xx'), TRAIN.map((p) => p.target).join('\n') + '\n');
    writeFileSync(join(esXx, 'dev.es'), DEV.map((p) => p.source).join('\n') + '\n');
    writeFileSync(join(esXx, 'dev.xx'), DEV.map((p) => p.target).join('\n') + '\n');
    const esYy = join(work, 'corpora/es-yy');
    mkdirSync(esYy, { recursive: true });
    const tus = MEMORY.map((p) => `<tu><tuv xml:lang="es"><seg>${p.source}</seg></tuv><tuv xml:lang="yy"><seg>${p.target}</seg></tuv></tu>`).join('\n');
    writeFileSync(
      join(esYy, 'memory.tmx'),
      `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="es" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="test" creationtool="test" creationtoolversion="1"/><body>\n${tus}\n</body></tmx>\n`,
    );
    writeFileSync(join(work, 'corpora/notes.txt'), 'not a language folder\n');
    // The CLI migrates the empty database on its first run, like every service.
    expect((await gaia('outbox', 'status')).code).toBe(0);
    sql = new Client({ connectionString: db.url });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await db?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it('is the bin of the repository: npx gaia help lists every command', async () => {
    const r = await run('npx', ['--no-install', 'gaia', 'help']);
    expect(r.code).toBe(0);
    for (const c of ['users list', 'users show', 'plan set', 'keys rate-limit', 'agents rebuild', 'agents publish', 'outbox status', 'outbox retry', 'seed'])
      expect(r.stdout).toContain(`gaia ${c}`);
    const bad = await gaia('users', 'drop');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown command: users drop');
  });

  it('seed builds one public agent per language folder, owned by the system account, learning train.* only', async () => {
    const report = await gaiaJson<{
      owner: string;
      agents: { folder: string; agent_id: string; status: string; pair_count: number; public: boolean; src_lang: string; tgt_lang: string }[];
      skipped: { path: string }[];
    }>('seed', join(work, 'corpora'));
    expect(report.owner).toBe('system@gaia.invalid');
    expect(report.agents.map((a) => [a.folder, a.src_lang, a.tgt_lang, a.status, a.public, a.pair_count])).toEqual([
      ['es-xx', 'es', 'xx', 'COMPLETED', true, distinct(TRAIN)],
      ['es-yy', 'es', 'yy', 'COMPLETED', true, distinct(MEMORY)],
    ]);
    expect(report.skipped).toEqual([{ path: '.', reason: 'not a <source>-<target> language folder' }]);
    const [system] = await q<{ id: string }>(`SELECT id FROM identity_user WHERE email = 'system@gaia.invalid'`);
    const agents = await q<{ id: string; owner_id: string; public: boolean; artifact_version: string | null }>(
      `SELECT id, owner_id, public, artifact_version FROM agent ORDER BY src_lang, tgt_lang`,
    );
    expect(agents).toHaveLength(2);
    for (const a of agents) expect(a).toMatchObject({ owner_id: system.id, public: true, artifact_version: expect.any(String) });

    // Seeding the same files again answers the same agents (nothing is built twice).
    const again = await gaiaJson<{ agents: { agent_id: string }[] }>('seed', join(work, 'corpora'));
    expect(again.agents.map((a) => a.agent_id)).toEqual(report.agents.map((a) => a.agent_id));
    expect(await q(`SELECT id FROM agent`)).toHaveLength(2);
  });

  it('agents rebuild learns a new version from the stored pairs; agents publish makes a private agent public', async () => {
    const [agent] = await q<{ id: string; artifact_version: string }>(`SELECT id, artifact_version FROM agent WHERE tgt_lang = 'xx'`);
    const rebuilt = await gaiaJson<{ id: string; artifact_version: string; pair_count: number }>('agents', 'rebuild', agent.id);
    expect(rebuilt.artifact_version).not.toBe(agent.artifact_version);
    expect(rebuilt.pair_count).toBe(distinct(TRAIN));
    expect((await q<{ artifact_version: string }>(`SELECT artifact_version FROM agent WHERE id = $1`, [agent.id]))[0].artifact_version).toBe(
      rebuilt.artifact_version,
    );

    await sql.query(`UPDATE agent SET public = false WHERE id = $1`, [agent.id]);
    const published = await gaiaJson<{ id: string; public: boolean }>('agents', 'publish', agent.id);
    expect(published).toMatchObject({ id: agent.id, public: true });
    expect((await q<{ public: boolean }>(`SELECT public FROM agent WHERE id = $1`, [agent.id]))[0].public).toBe(true);
    const missing = await gaia('agents', 'rebuild', 'no-such-agent');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Model not found.');
  });

  it('users list|show, plan set and keys rate-limit act on a real account', async () => {
    const userId = randomUUID();
    await sql.query(
      `INSERT INTO identity_user (id, email, password_hash, display_name, created_at, last_sign_in_at) VALUES ($1, 'ana@example.org', NULL, 'Ana', now(), now())`,
      [userId],
    );
    await sql.query(
      `INSERT INTO identity_api_key (id, user_id, kind, name, prefix, secret_hash, rate_limit) VALUES ($1, $2, 'user', 'ci', 'a1b2c3d4e5f6', 'not-a-real-hash', 1000)`,
      [randomUUID(), userId],
    );

    const users = await gaiaJson<{ email: string }[]>('users', 'list');
    expect(users.map((u) => u.email)).toEqual(['system@gaia.invalid', 'ana@example.org']);

    expect(await gaiaJson('plan', 'set', 'ana@example.org', 'starter')).toMatchObject({
      email: 'ana@example.org',
      plan: { id: 'starter', included_words: 5000 },
    });
    expect((await q<{ plan: string }>(`SELECT plan FROM billing_plan WHERE user_id = $1`, [userId]))[0].plan).toBe('starter');
    const wrongPlan = await gaia('plan', 'set', 'ana@example.org', 'platinum');
    expect(wrongPlan.code).toBe(1);
    expect(wrongPlan.stderr).toContain('Unknown plan platinum');

    expect(await gaiaJson('keys', 'rate-limit', 'a1b2c3d4e5f6', '5000')).toEqual({ prefix: 'a1b2c3d4e5f6', name: 'ci', rate_limit: 5000 });
    expect((await q<{ rate_limit: number }>(`SELECT rate_limit FROM identity_api_key WHERE prefix = 'a1b2c3d4e5f6'`))[0].rate_limit).toBe(5000);

    const shown = await gaiaJson<{ email: string; plan: string; keys: { prefix: string; rate_limit: number }[]; agents: unknown[] }>(
      'users',
      'show',
      'ana@example.org',
    );
    expect(shown).toMatchObject({ email: 'ana@example.org', plan: 'starter', keys: [{ prefix: 'a1b2c3d4e5f6', rate_limit: 5000 }], agents: [] });
    expect(JSON.stringify(shown)).not.toContain('not-a-real-hash');
    const human = await gaia('users', 'show', 'ana@example.org');
    expect(human.stdout).toContain('plan: starter');
  });

  it('outbox status reports dead letters and lag; outbox retry puts them back in the queue', async () => {
    const eventId = randomUUID();
    await sql.query(
      `INSERT INTO outbox_event (id, topic, key, payload) VALUES ($1, 'diagnostics.probe.v1', 'operator-e2e', '{"seq":1,"runId":"operator-e2e"}')`,
      [eventId],
    );
    await sql.query(
      `INSERT INTO outbox_delivery (event_id, subscriber, seq, status, attempts, last_error) SELECT id, 'probe', seq, 'dead', 25, 'consumer unreachable' FROM outbox_event WHERE id = $1`,
      [eventId],
    );
    const status = await gaiaJson<{
      dead: number;
      subscribers: { subscriber: string; dead: number }[];
      dead_letters: { event_id: string; topic: string; attempts: number; last_error: string }[];
    }>('outbox', 'status');
    expect(status.dead).toBe(1);
    expect(status.subscribers).toContainEqual(expect.objectContaining({ subscriber: 'probe', dead: 1 }));
    expect(status.dead_letters).toEqual([
      expect.objectContaining({ event_id: eventId, topic: 'diagnostics.probe.v1', attempts: 25, last_error: 'consumer unreachable' }),
    ]);

    expect(await gaiaJson('outbox', 'retry', eventId)).toEqual({ requeued: 1 });
    const [row] = await q<{ status: string }>(`SELECT status FROM outbox_delivery WHERE event_id = $1`, [eventId]);
    expect(['pending', 'delivered']).toContain(row.status);
    expect((await gaiaJson<{ dead: number }>('outbox', 'status')).dead).toBe(0);
  });
});
