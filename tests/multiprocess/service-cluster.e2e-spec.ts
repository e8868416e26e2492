/**
 * The multi-replica layout of the Helm chart on one machine: every service as its own process, two
 * replicas each, migrations applied once beforehand, over the local Postgres, NATS and Redis.
 * (Tooling: ./support/service-cluster.ts; the load run with uploads and translations builds on it.)
 */
import { createTestDatabase, waitFor, type TestDatabase } from '@gaia/testing';
import {
  SERVICES,
  migrate,
  startKafkaDouble,
  startOpenSearchDouble,
  startServiceCluster,
  type KafkaDoubleProcess,
  type OpenSearchDoubleProcess,
  type ServiceCluster,
} from './support/service-cluster';

/** Migration, the doubles and 12 processes on a shared 2-core machine: above the cluster's own 120 s ready deadline. */
const CLUSTER_START_TIMEOUT_MS = 300_000;

/** Signs up on one gateway and reads the account on the other with the same cookie. */
async function expectSessionOnBothGateways(cluster: ServiceCluster): Promise<void> {
  const [a, b] = cluster.gateways();
  const email = `cluster-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const signup = await fetch(`${a}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery staple', fullName: 'Cluster Test' }),
  });
  expect(signup.status).toBeLessThan(300);
  const cookies = signup.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  expect(cookies).toMatch(/gaia_session=/);
  const me = await fetch(`${b}/api/auth/me`, { headers: { cookie: cookies } });
  expect(me.status).toBe(200);
  expect(((await me.json()) as { user: { email: string } }).user.email).toBe(email);
}

describe('service cluster: every service as its own process, 2 replicas each', () => {
  let db: TestDatabase;
  let cluster: ServiceCluster | undefined;

  beforeAll(async () => {
    db = await createTestDatabase({ prefix: 'gaia_cluster' });
    await migrate(db.url);
    cluster = await startServiceCluster({ databaseUrl: db.url, replicas: 2 });
  }, CLUSTER_START_TIMEOUT_MS);

  afterAll(async () => {
    if (cluster) await cluster.stop();
    await db?.drop();
  });

  it('starts two ready replicas of every service', async () => {
    expect(cluster!.processes.map((p) => p.name).sort()).toEqual(SERVICES.flatMap((s) => [`${s}-1`, `${s}-2`]).sort());
    for (const p of cluster!.processes) {
      const res = await fetch(`${p.url}/readyz`);
      expect({ name: p.name, status: res.status }).toEqual({ name: p.name, status: 200 });
    }
    expect(new Set(cluster!.gateways()).size).toBe(2);
  });

  it('a session opened on one gateway is valid on the other', () => expectSessionOnBothGateways(cluster!));

  it('a replica stops gracefully on SIGTERM and a new one takes its place', async () => {
    expect(await cluster!.kill('billing-2')).toBe(0);
    expect(cluster!.urlsOf('billing')).toHaveLength(1);
    const again = await cluster!.restart('billing-2');
    expect((await fetch(`${again.url}/readyz`)).status).toBe(200);
  });
});

describe('service cluster in the production configuration (Kafka and OpenSearch doubles), 2 replicas each', () => {
  let db: TestDatabase;
  let kafka: KafkaDoubleProcess | undefined;
  let opensearch: OpenSearchDoubleProcess | undefined;
  let cluster: ServiceCluster | undefined;

  beforeAll(async () => {
    db = await createTestDatabase({ prefix: 'gaia_cluster_kafka' });
    kafka = await startKafkaDouble();
    opensearch = await startOpenSearchDouble();
    await migrate(db.url);
    cluster = await startServiceCluster({
      databaseUrl: db.url,
      replicas: 2,
      transport: 'kafka',
      env: { KAFKA_BROKERS: kafka.brokers, RETRIEVAL_BACKEND: 'opensearch', OPENSEARCH_URL: opensearch.url },
    });
  }, CLUSTER_START_TIMEOUT_MS);

  afterAll(async () => {
    if (cluster) await cluster.stop();
    if (kafka && kafka.child.exitCode === null) await kafka.stop().catch(() => undefined);
    if (opensearch && opensearch.child.exitCode === null) await opensearch.stop();
    await db?.drop();
  });

  it('starts two ready replicas of every service, each service one consumer group with both replicas', async () => {
    for (const p of cluster!.processes) {
      const res = await fetch(`${p.url}/readyz`);
      expect({ name: p.name, status: res.status }).toEqual({ name: p.name, status: 200 });
    }
    const groups = await waitFor(
      async () => kafka!.groups(),
      (g) => Object.values(g).length > 0 && Object.values(g).every((x) => x.members === 2),
      { timeoutMs: 60_000, what: 'consumer groups with two members each' },
    );
    expect(Object.keys(groups).length).toBeGreaterThan(0);
    expect(Object.keys(groups).every((g) => g.startsWith('gaia-'))).toBe(true);
  });

  it('a session opened on one gateway is valid on the other', () => expectSessionOnBothGateways(cluster!));

  it('the Kafka double saw only well-formed requests', async () => {
    await cluster!.stop();
    cluster = undefined;
    await expect(kafka!.stop()).resolves.toBe(0);
  });
});
