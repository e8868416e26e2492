import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ready, freePort, startPlatform, stop } from './support/platform-process';

const isRoot = process.getuid?.() === 0;

/**
 * As root, Postgres must run as the `postgres` user, which cannot enter a private folder such as
 * /root/<clone> or a `mktemp -d` folder (0700). The platform must still start there, without opening the
 * user's folders to others. (Only root meets this case: as another user Postgres runs as that user.)
 */
(isRoot ? describe : describe.skip)('as root, a DATA_DIR the postgres user cannot reach (skipped when not root)', () => {
  const parent = mkdtempSync(join(tmpdir(), 'gaia-private-'));
  const dataDir = join(parent, 'clone', 'data');
  let clusterDir = '';
  afterAll(() => {
    rmSync(parent, { recursive: true, force: true });
    if (clusterDir && !clusterDir.startsWith(dataDir)) rmSync(clusterDir, { recursive: true, force: true });
  });

  it('starts on embedded Postgres, keeps the folder private, remembers where its cluster is, and restarts on it', async () => {
    mkdirSync(dataDir, { recursive: true });
    expect(statSync(parent).mode & 0o777).toBe(0o700);
    const first = startPlatform(dataDir, await freePort());
    await ready(first);
    expect(await (await fetch(`http://127.0.0.1:${first.port}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await stop(first)).toBe(0);

    expect(statSync(parent).mode & 0o777).toBe(0o700);
    clusterDir = (JSON.parse(readFileSync(join(dataDir, 'postgres.json'), 'utf8')) as { clusterDir: string }).clusterDir;
    expect(clusterDir.startsWith(parent)).toBe(false);
    expect(readFileSync(join(clusterDir, 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);

    const second = startPlatform(dataDir, await freePort());
    await ready(second);
    expect(await stop(second)).toBe(0);
  }, 600_000);
});
