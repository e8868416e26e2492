import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BROWSER_ONLY_OPERATIONS, ROUTES } from './routes';

const DOCUMENT = join(__dirname, '../../../../docs/openapi.json');
const METHODS = ['get', 'post', 'patch', 'put', 'delete'];

describe('@gaia/client routes against docs/openapi.json', () => {
  const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => METHODS.includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
  const called = Object.values(ROUTES).map((r) => `${r.method} ${r.path}`);

  it('calls only operations the document declares', () => {
    expect(called.filter((op) => !documented.includes(op))).toEqual([]);
  });

  it('covers every operation of the document (except the OIDC browser redirects)', () => {
    const omitted: readonly string[] = BROWSER_ONLY_OPERATIONS;
    expect(documented.filter((op) => !called.includes(op) && !omitted.includes(op))).toEqual([]);
    expect(omitted.filter((op) => !documented.includes(op))).toEqual([]);
  });

  it('has one method per operation', () => {
    expect(new Set(called).size).toBe(called.length);
  });
});
