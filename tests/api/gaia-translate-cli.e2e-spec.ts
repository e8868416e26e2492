import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApp } from '@gaia/testing';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { signUp, startApi } from './support/api-app';
import { TranslationStandInModule } from './fixtures/translation-stand-in';
import { createAgent } from './support/agents';

const ROOT = join(__dirname, '../..');
/** What `npx gaia-translate` runs in this repo (node_modules/.bin/gaia-translate links it). */
const BIN = join(ROOT, 'node_modules/.bin/gaia-translate');

function cli(args: string[], stdin = '', env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** `gaia-translate` (the @gaia/client CLI) as a user runs it, against a real gateway (translation stand-in upper-cases). */
describe('gaia-translate CLI', () => {
  let t: TestApp & { url: string };
  let key: string;
  let agentId: string;
  let dir: string;

  beforeAll(async () => {
    t = await startApi({ without: ['TranslationModule'], imports: [TranslationStandInModule] });
    const u = await signUp(t.url, 'cli');
    const rpc = t.app.get<RpcClient>(RPC_CLIENT);
    await rpc.call('billing.set-plan.v1', { userId: u.uid, plan: 'starter' });
    agentId = (await createAgent(t.app, { ownerId: u.uid, ownerEmail: u.email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'cli', public: true })).id;
    key = (await u.agent.post('/api/api-keys/create/').set('X-CSRF-Token', u.csrf).send({ name: 'cli' }).expect(200)).body.api_key;
    dir = mkdtempSync(join(tmpdir(), 'gaia-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('translates stdin line by line to stdout (blank lines kept), languages from the agent', async () => {
    const r = await cli(['--key', key, '--agent', agentId, '--url', t.url], 'allin punchaw\n\nsumaq tuta\n');
    expect(r).toEqual({ code: 0, stdout: 'ALLIN PUNCHAW\n\nSUMAQ TUTA\n', stderr: '' });
  });

  it('draws a progress bar on stderr for a long input, and keeps lines aligned when one fails (exit 2)', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => (i === 7 ? Array.from({ length: 51 }, (_, k) => `w${k}`).join(' ') : `línea ${i}`));
    const r = await cli(['--agent', agentId, '--url', t.url, '--progress'], `${lines.join('\n')}\n`, { GAIA_API_KEY: key });
    expect(r.code).toBe(2);
    const out = r.stdout.split('\n');
    expect(out).toHaveLength(121);
    expect(out[0]).toBe('LÍNEA 0');
    expect(out[7]).toBe('');
    expect(out[119]).toBe('LÍNEA 119');
    expect(r.stderr).toContain('line 8: Text is too long: 51 words (maximum 50).');
    expect(r.stderr).toMatch(/\[#{30}\] 100% 120\/120/);
    expect(r.stderr).toMatch(/\] \d+% \d+\/120/);
  });

  it('translates a TMX file into the same format (--file, --out)', async () => {
    const input = join(dir, 'memoria.tmx');
    const output = join(dir, 'memoria.qu.tmx');
    writeFileSync(input, '<tmx version="1.4"><body><tu><tuv xml:lang="es"><seg>agua</seg></tuv></tu></body></tmx>\n');
    const r = await cli(['--key', key, '--agent', agentId, '--url', t.url, '--file', input, '--out', output]);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(output, 'utf8')).toBe('<tmx version="1.4"><body><tu><tuv xml:lang="es"><seg>agua</seg></tuv><tuv xml:lang="qu"><seg>AGUA</seg></tuv></tu></body></tmx>\n');
  });

  it("reports the server's error and exits 1; usage errors too", async () => {
    expect(await cli(['--key', key, '--agent', 'no-such-agent', '--url', t.url, '--from', 'es', '--to', 'qu'], 'hola\n')).toMatchObject({ code: 1, stdout: '', stderr: 'gaia-translate: Model not found. (HTTP 404)\n' });
    expect(await cli(['--key', 'gaia_000000000000_' + 'x'.repeat(43), '--agent', agentId, '--url', t.url, '--from', 'es', '--to', 'qu'], 'hola\n')).toMatchObject({ code: 1, stderr: 'gaia-translate: Invalid API key. (HTTP 401)\n' });
    const usage = await cli(['--agent', agentId], '');
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('--key (or GAIA_API_KEY) and --agent are required.');
  });
});
