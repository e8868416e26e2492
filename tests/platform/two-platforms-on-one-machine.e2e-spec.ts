import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedPort, freePort, listening, ready, removeDataFolder, startPlatform, stop, type PlatformProcess } from './support/platform-process';

describe('several platforms on one machine', () => {
  const base = mkdtempSync(join(tmpdir(), 'gaia-two-platforms-'));
  const started: PlatformProcess[] = [];
  afterAll(async () => {
    for (const p of started) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    removeDataFolder(base);
  });

  it('runs two platforms at once, each with its own DATA_DIR and PORT; each remembers its embedded Postgres port', async () => {
    const dirs = [join(base, 'a'), join(base, 'b')];
    const [a, b] = [startPlatform(dirs[0], await freePort()), startPlatform(dirs[1], await freePort())];
    started.push(a, b);
    await Promise.all([ready(a), ready(b)]);
    const ports = dirs.map(embeddedPort);
    expect(ports[0]).not.toBe(ports[1]);
    for (const p of [a, b]) expect(await (await fetch(`http://127.0.0.1:${p.port}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await Promise.all([stop(a), stop(b)])).toEqual([0, 0]);

    const again = startPlatform(dirs[1], await freePort());
    started.push(again);
    await ready(again);
    expect(embeddedPort(dirs[1])).toBe(ports[1]);
    expect(await stop(again)).toBe(0);
  }, 600_000);

  describe('a start-up failure prints its cause and exits non-zero', () => {
    let blocker: Server;
    let blocked = 0;
    beforeAll(async () => {
      blocked = await freePort();
      blocker = createServer((s) => s.destroy());
      await new Promise<void>((r) => blocker.listen(blocked, '127.0.0.1', () => r()));
    });
    afterAll(() => new Promise<void>((r) => blocker.close(() => r())));

    it('embedded Postgres port taken by another program', async () => {
      const p = startPlatform(join(base, 'pg-port-taken'), await freePort(), { EMBEDDED_POSTGRES_PORT: String(blocked) });
      started.push(p);
      expect(await p.exited).toBe(1);
      expect(p.output()).toMatch(/could not start: Error: embedded Postgres exited on start[\s\S]*Address already in use/);
      expect(p.output()).not.toMatch(/^undefined$/m);
    }, 300_000);

    it('HTTP port taken: the cause is printed and the embedded Postgres it started is stopped', async () => {
      const dir = join(base, 'http-port-taken');
      const p = startPlatform(dir, blocked);
      started.push(p);
      expect(await p.exited).toBe(1);
      expect(p.output()).toContain(`could not start: Error: listen EADDRINUSE: address already in use 127.0.0.1:${blocked}`);
      expect(await listening(embeddedPort(dir))).toBe(false);
    }, 300_000);
  });
});
