import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PLATFORM_NODE_FLAGS } = require('../apps/platform/node-flags.cjs') as { PLATFORM_NODE_FLAGS: string[] };

/** The processes that serve translations start with the V8 flags of apps/platform/node-flags.cjs, wherever they start. */
describe('node flags of the translation processes', () => {
  it.each(['platform', 'translation'])('the %s image starts node with them', (app) => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(root, `docker/${app}.Dockerfile`), 'utf8'));
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1])).toEqual(['node', ...PLATFORM_NODE_FLAGS, `dist/apps/${app}/main.js`]);
  });

  it('npm start and the API bench pass them to the platform', () => {
    expect(PLATFORM_NODE_FLAGS.length).toBeGreaterThan(0);
    expect(readFileSync(join(root, 'tools/start.mjs'), 'utf8')).toMatch(
      /spawn\(process\.execPath, \[\.\.\.PLATFORM_NODE_FLAGS, join\(root, 'dist\/apps\/platform\/main\.js'\)/,
    );
    expect(readFileSync(join(root, 'bench/scale/api-load.cjs'), 'utf8')).toMatch(/nodeFlags = PLATFORM_NODE_FLAGS \}\) \{/);
  });
});
