import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../../../..');
const DOCUMENT = join(ROOT, 'docs/openapi.json');
const BIN = join(ROOT, 'node_modules/.bin');
/** No telemetry and no update check: the tools run entirely offline. */
const OFFLINE_ENV = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; severity: string; message: string }>;
}

function run(bin: string, args: string[], cwd = ROOT): string {
  try {
    return execFileSync(join(BIN, bin), args, { cwd, env: OFFLINE_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; status?: number };
    throw new Error(`${bin} exited with ${err.status}:\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
  }
}

/** Every object of the document, depth first. */
function* nodes(v: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(v)) for (const x of v) yield* nodes(x);
  else if (v && typeof v === 'object') {
    yield v as Record<string, unknown>;
    for (const x of Object.values(v)) yield* nodes(x);
  }
}

describe('docs/openapi.json as a contract for client generators', () => {
  const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as {
    openapi: string;
    servers: unknown[];
    paths: Record<string, Record<string, { summary?: string; security?: unknown[] }>>;
    components: { schemas?: Record<string, unknown> };
  };

  it('passes Redocly CLI lint with the recommended ruleset without any error', () => {
    // Exit code 1 on errors: read the JSON report either way.
    let out: string;
    try {
      out = execFileSync(join(BIN, 'redocly'), ['lint', DOCUMENT, '--extends', 'recommended', '--format', 'json'], {
        cwd: ROOT,
        env: OFFLINE_ENV,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch (e) {
      out = (e as { stdout: string }).stdout;
    }
    const report = JSON.parse(out) as LintReport;
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('is OpenAPI 3.0 throughout (nullable, never the 3.1 type arrays or const), with servers, and every operation has a summary and explicit security', () => {
    expect(doc.openapi).toMatch(/^3\.0\./);
    expect(doc.servers.length).toBeGreaterThan(0);
    for (const n of nodes(doc)) {
      expect(Array.isArray(n['type']) ? n : null).toBeNull();
      expect('const' in n && typeof n['const'] !== 'object' ? n : null).toBeNull();
      if (Array.isArray(n['anyOf'])) expect((n['anyOf'] as Array<{ type?: unknown }>).filter((s) => s.type === 'null')).toEqual([]);
    }
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item).filter(([m]) => METHODS.includes(m))) {
        expect({ op: `${method} ${path}`, summary: typeof op.summary === 'string' && op.summary.length > 0, security: Array.isArray(op.security) }).toEqual({
          op: `${method} ${path}`,
          summary: true,
          security: true,
        });
      }
    }
  });

  it('generates a TypeScript client with @hey-api/openapi-ts that compiles under strict tsc (offline)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gaia-openapi-client-'));
    try {
      // An absolute input path: a relative one would be read as a registry shorthand.
      run('openapi-ts', ['-i', DOCUMENT, '-o', join(dir, 'client')]);
      writeFileSync(
        join(dir, 'use.ts'),
        [
          "import { agentsListPublic, translateTranslate } from './client';",
          'export async function demo(): Promise<unknown> {',
          '  await agentsListPublic();',
          "  const r = await translateTranslate({ body: { text: 'allin punchaw', model_id: 'm', src_lang: 'es', tgt_lang: 'qu', stream: false }, headers: { 'X-API-Key': 'k' } });",
          '  return r.data;',
          '}',
          '',
        ].join('\n'),
      );
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'bundler',
            strict: true,
            noEmit: true,
            lib: ['ES2023', 'DOM', 'DOM.Iterable'],
            types: [],
          },
          include: ['**/*.ts'],
        }),
      );
      run('tsc', ['-p', join(dir, 'tsconfig.json')], dir);
      const sdk = readFileSync(join(dir, 'client/sdk.gen.ts'), 'utf8');
      const operations = Object.values(doc.paths).flatMap((item) => Object.keys(item).filter((m) => METHODS.includes(m)));
      expect((sdk.match(/^export const \w+ = /gm) ?? []).length).toBe(operations.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
