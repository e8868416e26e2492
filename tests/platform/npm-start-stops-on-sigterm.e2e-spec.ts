import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@gaia/testing';
import { embeddedPort, freePort, listening, npmStart, processGroup, ready, removeDataFolder, type PlatformProcess } from './support/platform-process';

/** What a process manager does: SIGTERM to the `npm start` it launched, and nothing else. */
describe('npm start under a process manager', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'gaia-npm-start-')), 'data');
  let p: PlatformProcess | undefined;
  afterAll(() => {
    if (p?.child.pid && processGroup(p.child.pid).length) process.kill(-p.child.pid, 'SIGKILL');
    removeDataFolder(join(dataDir, '..'));
  });

  it('stops the whole tree (npm, start script, platform, embedded Postgres) on SIGTERM to npm, and frees the ports', async () => {
    p = npmStart(dataDir, await freePort(), { LOG_LEVEL: 'info' });
    await ready(p);
    const pgid = p.child.pid!;
    const tree = processGroup(pgid).map((x) => x.cmd);
    expect(tree.some((c) => c.includes('dist/apps/platform/main.js'))).toBe(true);
    expect(tree.some((c) => /bin\/postgres /.test(c))).toBe(true);
    const pgPort = embeddedPort(dataDir);

    process.kill(pgid, 'SIGTERM'); // npm's pid only, not the group
    await waitFor(
      async () => processGroup(pgid),
      (left) => left.length === 0,
      { timeoutMs: 60_000, intervalMs: 100, what: 'every process of the npm start tree to exit' },
    );
    expect(await listening(p.port)).toBe(false);
    expect(await listening(pgPort)).toBe(false);
    expect(p.output()).toContain('SIGTERM received, shutting down'); // the platform drained: a graceful stop, not a kill
  }, 400_000);
});
