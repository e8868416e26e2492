import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

describe('committed generated files', () => {
  it('docs/configuration.md and config-schema.json match the config catalog', () => {
    const r = spawnSync(process.execPath, [join(__dirname, 'gen-config-docs.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
