/**
 * The images (docker/<app>.Dockerfile, .dockerignore), checked without a Docker engine by parsing the
 * Dockerfiles: multi-stage, production dependencies only, non-root, health check on /healthz.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execForm, parseCopy, parseDockerfile, parseInstructions, type Stage } from './dockerfile-parser';

const root = join(__dirname, '..', '..');
const dockerDir = join(root, 'docker');
/** Deployable apps: the six services and the all-in-one platform (which also runs the migrations). */
const APPS = ['gateway', 'agents', 'ingestion', 'retrieval', 'translation', 'billing', 'platform'];
const SERVES_WEB = new Set(['gateway', 'platform']);

function read(app: string) {
  return parseDockerfile(readFileSync(join(dockerDir, `${app}.Dockerfile`), 'utf8'));
}

function runs(stage: Stage): string[] {
  return stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
}

describe('Dockerfile parser', () => {
  it('joins continuations, skips comments and splits stages', () => {
    const d = parseDockerfile('ARG X=1\n# c\nFROM a:1 AS one\nRUN echo \\\n  # inner\n  two\nFROM one\nUSER 1000\n');
    expect(d.preamble.map((i) => i.keyword)).toEqual(['ARG']);
    expect(d.stages.map((s) => [s.name, s.base])).toEqual([
      ['one', 'a:1'],
      [undefined, 'one'],
    ]);
    expect(d.stages[0].instructions[0]).toEqual({ keyword: 'RUN', args: 'echo  two', line: 4 });
    expect(() => parseInstructions('RUN a \\')).toThrow(/continuation/);
    expect(parseCopy('--from=b --chown=1:1 x y /z')).toEqual({ flags: { from: 'b', chown: '1:1' }, sources: ['x', 'y'], dest: '/z' });
  });
});

describe.each(APPS)('docker/%s.Dockerfile', (app) => {
  const file = read(app);
  const final = file.stages[file.stages.length - 1];
  const stageNames = new Set(file.stages.map((s) => s.name));

  it('is a multi-stage build on a pinned Node 20 image', () => {
    expect(file.stages.length).toBeGreaterThanOrEqual(2);
    const arg = file.preamble.find((i) => i.keyword === 'ARG' && i.args.startsWith('NODE_IMAGE='));
    expect(arg?.args).toMatch(/^NODE_IMAGE=node:20(\.\d+)+-[a-z-]+$/);
    for (const s of file.stages) expect(s.base === '${NODE_IMAGE}' || stageNames.has(s.base)).toBe(true);
    expect(file.stages.every((s) => !/:latest$/.test(s.base))).toBe(true);
  });

  it('builds with npm ci and npm run build in a build stage', () => {
    const build = file.stages.find((s) => runs(s).some((r) => /\bnpm run build\b/.test(r)));
    expect(build).toBeDefined();
    expect(build).not.toBe(final);
    expect(runs(build!).some((r) => /\bnpm ci\b/.test(r))).toBe(true);
  });

  it('ships production dependencies only', () => {
    // The final stage installs nothing itself and takes node_modules from a stage that ran `npm ci --omit=dev`.
    expect(runs(final).filter((r) => /\bnpm (ci|install|i)\b/.test(r))).toEqual([]);
    const copies = final.instructions.filter((i) => i.keyword === 'COPY').map((i) => parseCopy(i.args));
    const modules = copies.filter((c) => c.sources.some((s) => /node_modules/.test(s)));
    expect(modules).toHaveLength(1);
    const from = file.stages.find((s) => s.name === modules[0].flags['from']);
    expect(from).toBeDefined();
    expect(runs(from!).some((r) => /\bnpm ci\b.*--omit=dev/.test(r))).toBe(true);
    expect(runs(from!).some((r) => /npm (ci|install)(?![^&]*--omit=dev)/.test(r))).toBe(false);
    for (const c of copies) {
      if (c.flags['from']) expect(stageNames.has(c.flags['from'])).toBe(true);
      // nothing but the compiled workspace (dist/out), the app's entry (and the web app) and package.json
      const allowed = [`/src/dist/apps/${app}`, '/src/dist/out', '/app/node_modules', 'package.json', ...(SERVES_WEB.has(app) ? ['/src/dist/apps/web'] : [])];
      for (const s of c.sources) expect(allowed).toContain(s);
    }
    expect(final.instructions.some((i) => i.keyword === 'ENV' && /NODE_ENV=production/.test(i.args))).toBe(true);
  });

  it('runs as a numeric non-root user', () => {
    const users = final.instructions.filter((i) => i.keyword === 'USER');
    expect(users.length).toBeGreaterThan(0);
    const last = users[users.length - 1].args;
    expect(last).toMatch(/^\d+(:\d+)?$/);
    expect(Number(last.split(':')[0])).toBeGreaterThan(0);
    // nothing after USER may switch back to root
    const afterUser = final.instructions.slice(final.instructions.indexOf(users[users.length - 1]) + 1);
    expect(afterUser.some((i) => i.keyword === 'USER')).toBe(false);
  });

  // When the workspace is built (tools/build.mjs), the entry point's requires must resolve inside what the image copies.
  const entry = join(root, 'dist', 'apps', app, 'main.js');
  (existsSync(entry) ? it : it.skip)('copies everything the built entry point requires', () => {
    const copied = final.instructions
      .filter((i) => i.keyword === 'COPY' && parseCopy(i.args).flags['from'] === 'build')
      .map((i) => parseCopy(i.args).dest.replace(/^\.\//, '').replace(/\/$/, ''));
    const requires = [...readFileSync(entry, 'utf8').matchAll(/require\('(\.{1,2}\/[^']+)'\)/g)].map((m) => join('dist', 'apps', app, m[1]));
    expect(requires.length).toBeGreaterThan(0);
    for (const r of requires) expect({ r, copied: copied.some((dir) => r === dir || r.startsWith(dir + '/')) }).toEqual({ r, copied: true });
  });

  it('checks health on /healthz of $PORT and starts the app', () => {
    const hc = final.instructions.filter((i) => i.keyword === 'HEALTHCHECK');
    expect(hc).toHaveLength(1);
    const m = /^((?:--\S+\s+)*)CMD\s+(.*)$/s.exec(hc[0].args);
    expect(m).not.toBeNull();
    expect(m![1]).toMatch(/--interval=\d+s/);
    expect(m![1]).toMatch(/--timeout=\d+s/);
    const cmd = execForm(m![2]);
    expect(cmd?.[0]).toBe('node');
    expect(cmd!.join(' ')).toMatch(/process\.env\.PORT/);
    expect(cmd!.join(' ')).toMatch(/\/healthz/);
    expect(final.instructions.find((i) => i.keyword === 'EXPOSE')?.args).toBe('8080');
    const start = final.instructions.filter((i) => i.keyword === 'CMD');
    // V8 flags between node and the entry point (the translation processes' flags: tools/node-flags.spec.ts)
    const argv = execForm(start[start.length - 1].args) ?? [];
    expect([argv[0], argv[argv.length - 1]]).toEqual(['node', `dist/apps/${app}/main.js`]);
    expect(argv.slice(1, -1).filter((flag) => !flag.startsWith('--'))).toEqual([]);
  });
});

describe('docker/', () => {
  it('has one Dockerfile per deployable app and nothing else', () => {
    const files = readdirSync(dockerDir)
      .filter((f) => f.endsWith('.Dockerfile'))
      .sort();
    expect(files).toEqual(APPS.map((a) => `${a}.Dockerfile`).sort());
  });

  it('.dockerignore keeps dependencies, build output, VCS data and secrets out of the context', () => {
    const path = join(root, '.dockerignore');
    expect(existsSync(path)).toBe(true);
    const entries = readFileSync(path, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const required of ['.git', 'node_modules', '**/node_modules', 'dist', '.env', '.env.*']) expect(entries).toContain(required);
    for (const needed of ['package.json', 'package-lock.json', 'apps', 'libs', '.npmrc']) expect(entries).not.toContain(needed);
  });
});
