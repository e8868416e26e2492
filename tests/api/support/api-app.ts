import request from 'supertest';
import type { DynamicModule } from '@nestjs/common';
import { createTestApp, type TestApp, type TestDatabase } from '@gaia/testing';
import type { SchemaBundle } from '@gaia/shared/database';
import type { Clock } from '@gaia/shared/kernel';
// The API tier boots exactly the platform's composition (every domain wired there), so it follows that file.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { CONSUMERS, FEATURES, SCHEMAS } from '../../../apps/platform/src/app.module';
import { GatewayModule, type GatewayModuleOptions } from '@gaia/gateway/feature';

export type Agent = ReturnType<typeof request.agent>;

/**
 * The platform's composition (every domain module that exists) on a fresh database, HTTP on port 0.
 * `gateway` replaces the platform's GatewayModule when a test needs other limits.
 */
export async function startApi(
  o: {
    gateway?: GatewayModuleOptions;
    env?: Record<string, string>;
    database?: TestDatabase;
    /** Platform modules to leave out (by module class name), e.g. to put a stand-in in their place. */
    without?: string[];
    imports?: unknown[];
    /** Domains a test needs: added only when the platform does not compose them (yet). */
    ensure?: Array<{ module: unknown; schema: SchemaBundle }>;
    /** The app's CLOCK (e.g. a ManualClock); the system clock when absent. */
    clock?: Clock;
  } = {},
): Promise<TestApp & { url: string }> {
  const name = (m: unknown) => ((m as DynamicModule).module ?? (m as { name?: string })).name;
  const features = (FEATURES ?? [])
    .filter((m) => !(o.without ?? []).includes(name(m)))
    .map((m) => (o.gateway && (m as DynamicModule).module === GatewayModule ? GatewayModule.forRoot(o.gateway) : m));
  const present = new Set((FEATURES ?? []).map(name));
  const ensured = (o.ensure ?? []).filter((d) => !present.has(name(d.module)));
  const imports = [...features, ...((o.imports ?? []) as typeof features), ...(ensured.map((d) => d.module) as typeof features)];
  const schemas = [...SCHEMAS, ...ensured.map((d) => d.schema).filter((s) => !SCHEMAS.includes(s))];
  const t = await createTestApp({ schemas, consumers: CONSUMERS, imports, http: true, env: o.env, database: o.database, clock: o.clock });
  return t as TestApp & { url: string };
}

export function cookieValue(res: request.Response, name: string): string | undefined {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  for (const c of raw ?? []) {
    const [pair] = c.split(';');
    const i = pair.indexOf('=');
    if (pair.slice(0, i) === name) return decodeURIComponent(pair.slice(i + 1));
  }
  return undefined;
}

export interface User {
  agent: Agent;
  csrf: string;
  uid: string;
  email: string;
  /** `gaia_session=…; gaia_csrf=…` for clients without a cookie jar (sockets). */
  cookie: string;
}

let seq = 0;
/** Signs a new user up (cookie jar + CSRF token). */
export async function signUp(url: string, prefix = 'user', password = 'correct horse battery'): Promise<User> {
  const agent = request.agent(url);
  const email = `${prefix}-${Date.now().toString(36)}-${seq++}@example.org`;
  const res = await agent
    .post('/api/auth/signup')
    .send({ email, password, fullName: `${prefix} person` })
    .expect(201);
  const csrf = cookieValue(res, 'gaia_csrf');
  if (!csrf) throw new Error('no csrf cookie');
  return { agent, csrf, uid: res.body.user.uid, email, cookie: `gaia_session=${cookieValue(res, 'gaia_session')}; gaia_csrf=${csrf}` };
}
