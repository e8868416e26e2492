import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EVENTS, RPCS, type RpcDefinition } from '@gaia/contracts';

/**
 * Static two-way check of the messaging wiring against the contracts (libs/contracts/src/{events,rpc}):
 * - every subscriber an event declares has an `@OnEvent('<subscriber>', '<topic>')` handler, and every handler
 *   has a declared subscription (an undeclared one never runs; a declared one without a handler, or with an
 *   empty one, costs a delivery for nothing);
 * - every RPC has exactly one `@OnRpc('<name>')` handler and a production caller (`.call('<name>'` or
 *   `.stream('<name>'`). The `probe` calls are the messaging self-test surface: their callers are the
 *   transport tests, so for them a caller in the tests counts.
 * Production code is every `src` file of libs/ and apps/ (the web app aside) except specs and `testing` folders.
 */
const ROOT = join(__dirname, '..');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const isTest = (path: string) =>
  /\.(spec|integration-spec|e2e-spec)\.tsx?$/.test(path) || /(^|\/)testing\//.test(path) || path.startsWith('tests/') || path.startsWith('bench/');
const all = [...files(join(ROOT, 'libs')), ...files(join(ROOT, 'apps')), ...files(join(ROOT, 'tests')), ...files(join(ROOT, 'bench'))]
  .map((p) => relative(ROOT, p))
  .filter((p) => !p.startsWith('apps/web/') && !p.startsWith('libs/contracts/'));
const source = new Map(all.map((p) => [p, readFileSync(join(ROOT, p), 'utf8')]));
const production = [...source.keys()].filter((p) => !isTest(p) && /(^|\/)src\//.test(p));
const tests = [...source.keys()].filter(isTest);

function matches(paths: string[], re: RegExp): Array<{ path: string; groups: string[] }> {
  const out: Array<{ path: string; groups: string[] }> = [];
  for (const path of paths) for (const m of (source.get(path) ?? '').matchAll(re)) out.push({ path, groups: m.slice(1) });
  return out;
}

const NAME = `'([a-z-]+\\.[a-z0-9-]+\\.v\\d+)'`;
const eventHandlers = matches(production, new RegExp(`@OnEvent\\(\\s*'([a-z]+)',\\s*${NAME}\\s*\\)`, 'g')).map(({ path, groups: [consumer, topic] }) => ({
  path,
  consumer,
  topic,
}));
/** Stand-in handlers of the tests (they acknowledge events for services a test does not run). */
const standInHandlers = matches(tests, new RegExp(`@OnEvent\\(\\s*'([a-z]+)',\\s*${NAME}\\s*\\)`, 'g')).map(({ path, groups: [consumer, topic] }) => ({
  path,
  consumer,
  topic,
}));
/** Handlers whose body is empty (whitespace and comments only). */
const emptyEventHandlers = matches(
  production,
  new RegExp(
    `@OnEvent\\(\\s*'([a-z]+)',\\s*${NAME}\\s*\\)\\s*(?:async\\s+)?\\w+\\([^)]*\\)(?:\\s*:\\s*[^{]+)?\\s*\\{(?:\\s|//[^\\n]*|/\\*[\\s\\S]*?\\*/)*\\}`,
    'g',
  ),
).map(({ path, groups: [consumer, topic] }) => `@OnEvent('${consumer}', '${topic}') in ${path}`);
const rpcHandlers = matches(production, new RegExp(`@OnRpc\\(\\s*${NAME}\\s*\\)`, 'g')).map(({ path, groups: [name] }) => ({ path, name }));
const callersIn = (paths: string[]) => matches(paths, new RegExp(`\\.(?:call|stream)\\(\\s*${NAME}`, 'g')).map(({ path, groups: [name] }) => ({ path, name }));
const productionCallers = callersIn(production);
const testCallers = callersIn(tests);

describe('messaging wiring (contracts ↔ handlers ↔ callers)', () => {
  it('finds the handlers and callers it checks (the scan reads the tree)', () => {
    expect(eventHandlers.length).toBeGreaterThan(10);
    expect(rpcHandlers.length).toBeGreaterThan(10);
    expect(productionCallers.length).toBeGreaterThan(10);
  });

  it('every subscriber an event declares has a handler', () => {
    const missing = Object.entries(EVENTS).flatMap(([topic, def]) =>
      def.subscribers
        .filter((consumer) => !eventHandlers.some((h) => h.topic === topic && h.consumer === consumer))
        .map((consumer) => `${topic} → ${consumer}`),
    );
    expect(missing).toEqual([]);
  });

  it('no event handler is empty (an empty one costs a delivery per event: drop the subscription instead)', () => {
    expect(emptyEventHandlers).toEqual([]);
  });

  it('every event handler, and every stand-in of the tests, has a declared subscription', () => {
    const undeclared = [...eventHandlers, ...standInHandlers]
      .filter((h) => !(EVENTS as Record<string, { subscribers: readonly string[] }>)[h.topic]?.subscribers.includes(h.consumer))
      .map((h) => `@OnEvent('${h.consumer}', '${h.topic}') in ${h.path}`);
    expect(undeclared).toEqual([]);
  });

  it('every RPC has exactly one handler, and every handler serves a declared RPC', () => {
    const counts = Object.keys(RPCS).map((name) => `${name}: ${rpcHandlers.filter((h) => h.name === name).length}`);
    expect(counts).toEqual(Object.keys(RPCS).map((name) => `${name}: 1`));
    expect(rpcHandlers.filter((h) => !(h.name in RPCS)).map((h) => `${h.name} in ${h.path}`)).toEqual([]);
  });

  it('every RPC has a production caller (probe calls: a transport test), and every call names a declared RPC', () => {
    const uncalled = Object.entries(RPCS as Record<string, RpcDefinition>)
      .filter(([name, def]) => !(def.service === 'probe' ? testCallers : productionCallers).some((c) => c.name === name))
      .map(([name]) => name);
    expect(uncalled).toEqual([]);
    expect([...productionCallers, ...testCallers].filter((c) => !(c.name in RPCS)).map((c) => `${c.name} in ${c.path}`)).toEqual([]);
  });
});
