import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * One naming scheme for messaging handlers (CONTRIBUTING.md): a production file with `@OnRpc` is a `*.rpc.ts`,
 * with `@OnEvent` a `*.listener.ts`, with `@OnJob` a `*.job.ts` — so a file holds one kind of handler and its name
 * says which. Specs, `testing` folders and the messaging library's own decorators are not handlers.
 */
const ROOT = join(__dirname, '..');

const SUFFIX: Record<string, string> = { OnRpc: '.rpc.ts', OnEvent: '.listener.ts', OnJob: '.job.ts' };

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name === 'testing' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (e.name.endsWith('.ts') && !/\.(spec|integration-spec|e2e-spec|d)\.ts$/.test(e.name)) out.push(p);
  }
  return out;
}

const misnamed = [...sources(join(ROOT, 'libs')), ...sources(join(ROOT, 'apps'))]
  .map((p) => relative(ROOT, p))
  .filter((p) => !p.startsWith('libs/shared/messaging/src/decorators.ts') && !p.startsWith('libs/shared/messaging/src/messaging.host.ts'))
  .flatMap((p) => {
    const text = readFileSync(join(ROOT, p), 'utf8');
    return Object.entries(SUFFIX)
      .filter(([decorator, suffix]) => new RegExp(`@${decorator}\\(`).test(text) && !p.endsWith(suffix))
      .map(([decorator, suffix]) => `${p}: @${decorator} belongs in a *${suffix}`);
  });

describe('messaging handler file names', () => {
  it('put RPC servers in *.rpc.ts, event listeners in *.listener.ts and job workers in *.job.ts', () => {
    expect(misnamed).toEqual([]);
  });
});
