import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApp } from '@gaia/testing';
import { startApi } from './support/api-app';
import { runProcess } from './support/run-process';
import { TINY_ES_QU } from './fixtures/real-agent';
import { paidCaller } from './support/paid-caller';

const ROOT = join(__dirname, '../..');
/** What `npx gaia-translate` runs in this repo (node_modules/.bin/gaia-translate links it). */
const BIN = join(ROOT, 'node_modules/.bin/gaia-translate');

const cli = (args: string[], stdin = '', env: Record<string, string> = {}) => runProcess(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdin });

/**
 * `gaia-translate` (the @gaia/client CLI) as a user runs it, against a real gateway and the real translation service
 * with a real agent learned from a tiny made-up corpus (its sentences translate to their known targets).
 */
describe('gaia-translate CLI', () => {
  let t: TestApp & { url: string };
  let key: string;
  let agentId: string;
  let dir: string;

  beforeAll(async () => {
    t = await startApi();
    ({ agentId, key } = await paidCaller(t, 'cli', { srcLang: 'es', tgtLang: 'qu', pairs: TINY_ES_QU }));
    dir = mkdtempSync(join(tmpdir(), 'gaia-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('translates stdin line by line to stdout (blank lines kept), languages from the agent', async () => {
    const r = await cli(['--key', key, '--agent', agentId, '--url', t.url], 'buenos días\n\ngracias\n');
    expect(r).toEqual({ code: 0, stdout: 'allin punchaw\n\nsulpayki\n', stderr: '' });
  });

  it("--confidence adds each line's confidence after a tab (blank lines stay blank)", async () => {
    const r = await cli(['--key', key, '--agent', agentId, '--url', t.url, '--confidence'], 'buenos días\n\ngracias\n');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^allin punchaw\t[01]\.\d\d\n\nsulpayki\t[01]\.\d\d\n$/);
  });

  it('draws a progress bar on stderr for a long input, and keeps lines aligned when one fails (exit 2)', async () => {
    const pair = (i: number) => TINY_ES_QU[i % TINY_ES_QU.length];
    const lines = Array.from({ length: 120 }, (_, i) => (i === 7 ? Array.from({ length: 51 }, (_, k) => `w${k}`).join(' ') : pair(i).source));
    const r = await cli(['--agent', agentId, '--url', t.url, '--progress'], `${lines.join('\n')}\n`, { GAIA_API_KEY: key });
    expect(r.code).toBe(2);
    const out = r.stdout.split('\n');
    expect(out).toHaveLength(121);
    expect(out.slice(0, 120)).toEqual(lines.map((_, i) => (i === 7 ? '' : pair(i).target)));
    expect(r.stderr).toContain('line 8: Text is too long: 51 words (maximum 50).');
    expect(r.stderr).toMatch(/\[#{30}\] 100% 120\/120/);
    expect(r.stderr).toMatch(/\] \d+% \d+\/120/);
  });

  it('translates a TMX file into the same format (--file, --out)', async () => {
    const input = join(dir, 'memoria.tmx');
    const output = join(dir, 'memoria.qu.tmx');
    writeFileSync(input, '<tmx version="1.4"><body><tu><tuv xml:lang="es"><seg>el agua</seg></tuv></tu></body></tmx>\n');
    const r = await cli(['--key', key, '--agent', agentId, '--url', t.url, '--file', input, '--out', output]);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(output, 'utf8')).toBe(
      '<tmx version="1.4"><body><tu><tuv xml:lang="es"><seg>el agua</seg></tuv><tuv xml:lang="qu"><seg>yaku</seg></tuv></tu></body></tmx>\n',
    );
  });

  it("reports the server's error and exits 1; usage errors too", async () => {
    expect(await cli(['--key', key, '--agent', 'no-such-agent', '--url', t.url, '--from', 'es', '--to', 'qu'], 'hola\n')).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'gaia-translate: Model not found. (HTTP 404)\n',
    });
    expect(
      await cli(['--key', 'gaia_000000000000_' + 'x'.repeat(43), '--agent', agentId, '--url', t.url, '--from', 'es', '--to', 'qu'], 'hola\n'),
    ).toMatchObject({ code: 1, stderr: 'gaia-translate: Invalid API key. (HTTP 401)\n' });
    const usage = await cli(['--agent', agentId], '');
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('--key (or GAIA_API_KEY) and --agent are required.');
  });
});
