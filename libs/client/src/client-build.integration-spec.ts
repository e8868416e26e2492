import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

/** Builds the package as it is published (node tools/build-client.mjs) into a consumer's node_modules. */
describe('@gaia/client package (ESM + CJS, no runtime dependency)', () => {
  const work = join(ROOT, 'tmp', `client-build-${process.pid}`);
  const pkg = join(work, 'node_modules/@gaia/client');

  beforeAll(() => {
    mkdirSync(work, { recursive: true });
    execFileSync(process.execPath, [join(ROOT, 'tools/build-client.mjs'), pkg], { cwd: ROOT, stdio: 'pipe' });
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('loads with require and with import, with the same API', async () => {
    const consumer = join(work, 'consumer.cjs');
    writeFileSync(consumer, "const c = require('@gaia/client'); process.stdout.write(JSON.stringify(Object.keys(c).sort()));");
    const cjs = JSON.parse(execFileSync(process.execPath, [consumer], { cwd: work, encoding: 'utf8' })) as string[];
    writeFileSync(join(work, 'consumer.mjs'), "const c = await import('@gaia/client'); process.stdout.write(JSON.stringify(Object.keys(c).sort()));");
    const esm = JSON.parse(execFileSync(process.execPath, [join(work, 'consumer.mjs')], { cwd: work, encoding: 'utf8' })) as string[];
    expect(cjs).toEqual(esm);
    expect(cjs).toEqual(expect.arrayContaining(['GaiaClient', 'GaiaApiError', 'GaiaRateLimitError', 'parseSse']));
  });

  it('has no import or require of anything but its own files (global fetch only)', () => {
    const js = files(pkg).filter((f) => /\.(c?js)$/.test(f));
    expect(js.length).toBeGreaterThan(0);
    for (const f of js) {
      const specifiers = [...readFileSync(f, 'utf8').matchAll(/(?:from\s+|require\(|import\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
      // The library: only its own files. The CLI (cli/): also Node's built-ins.
      const allowed = (s: string) => s.startsWith('./') || s.startsWith('../') || (f.includes('/cli/') && s.startsWith('node:'));
      expect({ file: f, external: specifiers.filter((s) => !allowed(s)) }).toEqual({ file: f, external: [] });
    }
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { dependencies?: unknown; exports: Record<string, unknown>; bin: unknown };
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.exports['.']).toEqual({ types: './types/client/src/index.d.ts', import: './esm/index.js', require: './cjs/index.cjs' });
    expect(manifest.bin).toEqual({ 'gaia-translate': './cjs/cli/main.cjs' });
    expect(readFileSync(join(pkg, 'cjs/cli/main.cjs'), 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
  });

  it('its declarations type-check a consumer (strict, node16 resolution)', () => {
    writeFileSync(
      join(work, 'use.ts'),
      [
        "import { GaiaClient, GaiaRateLimitError, type AppliedTerm, type TranslateAnswer, type TranslationExplanation } from '@gaia/client';",
        "const gaia = new GaiaClient({ baseUrl: 'http://localhost:8080', apiKey: 'k', retry: { retries: 2 } });",
        'export async function run(): Promise<string> {',
        "  const r = await gaia.translate({ text: 'allin punchaw', model_id: 'm', src_lang: 'qu', tgt_lang: 'es' });",
        "  for await (const e of gaia.streamTranslation({ text: 'a', model_id: 'm', src_lang: 'qu', tgt_lang: 'es' })) if (e.type === 'translation_complete') return e.final_translation;",
        '  return r.data.translation;',
        '}',
        'export const isLimit = (e: unknown): boolean => e instanceof GaiaRateLimitError && e.retryAfterSeconds !== null;',
        'export async function explained(): Promise<{ confidence: number; terms: AppliedTerm[]; why: TranslationExplanation | undefined }> {',
        "  const r: TranslateAnswer = await gaia.translate({ text: 'a', model_id: 'm', src_lang: 'qu', tgt_lang: 'es', explain: true });",
        '  return { confidence: r.confidence, terms: r.applied_terms, why: r.explanation };',
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'node16',
          moduleResolution: 'node16',
          lib: ['ES2023', 'DOM'],
          types: [],
          typeRoots: [],
        },
        files: ['use.ts'],
      }),
    );
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(work, 'tsconfig.json')], { cwd: work, stdio: 'pipe' });
  });
});
