/**
 * Builds helm/tools/render (Go text/template + Sprig, offline from Debian's packages) once per source
 * version and runs it. Needs `go` and the Sprig sources:
 *   apt-get install -y golang-go golang-github-masterminds-sprig-dev yamllint
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');
export const CHART_DIR = join(REPO_ROOT, 'helm', 'gaia');
const RENDER_SRC = join(REPO_ROOT, 'helm', 'tools', 'render');
const DEBIAN_GOPATH = '/usr/share/gocode';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string>; namespace?: string };
  [key: string]: any;
}

export interface RenderedManifest {
  template: string;
  content: string;
  documents: K8sObject[];
  error?: string;
}

export interface RenderResult {
  manifests: RenderedManifest[];
  notes: string;
}

export function goAvailable(): boolean {
  return spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0;
}

export function yamllintAvailable(): boolean {
  return spawnSync('yamllint', ['--version'], { encoding: 'utf8' }).status === 0;
}

export function sprigAvailable(): boolean {
  return existsSync(join(DEBIAN_GOPATH, 'src', 'github.com', 'Masterminds', 'sprig'));
}

function goEnv(cacheDir: string): NodeJS.ProcessEnv {
  const gopath = [process.env['GOPATH'], DEBIAN_GOPATH].filter(Boolean).join(':');
  return { ...process.env, GO111MODULE: 'off', GOPATH: gopath, GOFLAGS: '', GOCACHE: join(cacheDir, 'gocache'), CGO_ENABLED: '0' };
}

let binary: string | undefined;

/** Compiles the renderer (cached by the hash of its sources) and returns the binary's path. */
export function buildRenderer(): string {
  if (binary) return binary;
  const hash = createHash('sha256');
  for (const f of readdirSync(RENDER_SRC)
    .filter((n) => n.endsWith('.go'))
    .sort())
    hash.update(f).update(readFileSync(join(RENDER_SRC, f)));
  const dir = join(tmpdir(), 'gaia-helm-render');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `render-${hash.digest('hex').slice(0, 16)}`);
  if (!existsSync(out)) {
    const res = spawnSync('go', ['build', '-o', out, '.'], { cwd: RENDER_SRC, env: goEnv(dir), encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`go build of helm/tools/render failed:\n${res.stderr}`);
  }
  binary = out;
  return out;
}

export interface RenderOptions {
  valuesFiles?: string[];
  set?: string[];
  name?: string;
  namespace?: string;
  chart?: string;
}

function args(opts: RenderOptions, format: 'json' | 'yaml'): string[] {
  const a = ['--chart', opts.chart ?? CHART_DIR, '--name', opts.name ?? 'gaia', '--namespace', opts.namespace ?? 'gaia', '--format', format];
  for (const f of opts.valuesFiles ?? []) a.push('-f', f);
  for (const s of opts.set ?? []) a.push('--set', s);
  return a;
}

/** Renders the chart; throws with the renderer's message when a template fails (e.g. `fail`, `required`). */
export function render(opts: RenderOptions = {}): RenderResult {
  const res = spawnSync(buildRenderer(), args(opts, 'json'), { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(res.stderr.trim() || `renderer exited with ${res.status}`);
  return JSON.parse(res.stdout) as RenderResult;
}

/** The `helm template`-like YAML stream (one `# Source:` header per document). */
export function renderYaml(opts: RenderOptions = {}): string {
  const res = spawnSync(buildRenderer(), args(opts, 'yaml'), { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(res.stderr.trim() || `renderer exited with ${res.status}`);
  return res.stdout;
}

/** yamllint on a YAML text; returns its findings (empty when clean). */
export function yamllint(text: string): string {
  const res = spawnSync('yamllint', ['-f', 'parsable', '-c', join(__dirname, 'yamllint.yaml'), '-'], { input: text, encoding: 'utf8' });
  if (res.status === 0) return '';
  return (res.stdout + res.stderr).trim() || `yamllint exited with ${res.status}`;
}
