/**
 * Consumer groups on the wire: replicas of a service (GaiaKafkaServer = @nestjs/microservices ServerKafka
 * with the production options) against the Kafka broker double, which runs the group coordinator
 * protocol (FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit/Fetch, ListOffsets,
 * Fetch). Events are produced by ClientKafka with the production producer options.
 */
import { lastValueFrom } from 'rxjs';
import { ClientKafka, type KafkaContext } from '@nestjs/microservices';
import { logLevel } from 'kafkajs';
import type { EventEnvelope } from '@gaia/contracts';
import { GaiaKafkaServer } from './gaia-kafka.server';
import { kafkaConsumerOptions, kafkaProducerOptions } from './kafka-options.factory';
import { toKafkaMessage } from './kafka-message';
import type { KafkaSettings } from './kafka-settings';
import { KafkaWireDouble } from './testing/kafka-wire.double';

const TOPIC = 'ingestion.task-progress.v1';
// Real kafkajs clients against the wire double: group joins and rebalances take longer on a loaded machine. Every
// condition is awaited with its own deadline (waitFor), so Jest's 5 s default must not cut a test short.
const WIRE_TEST_TIMEOUT_MS = 120_000;
jest.setTimeout(WIRE_TEST_TIMEOUT_MS);

/** Polls until the condition holds (state owned by the kafkajs runners); fails with the last value. */
async function waitFor<T>(probe: () => Promise<T>, done: (v: T) => boolean, opts: { timeoutMs?: number; what?: string } = {}): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let last = await probe();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what ?? 'condition'}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 20));
    last = await probe();
  }
  return last;
}

interface Handled {
  replica: string;
  id: string;
  key: string;
  seq: number;
  partition: number;
}

function envelope(i: number, agent: string): EventEnvelope {
  return { id: `ev-${i}`, topic: TOPIC, key: agent, occurredAt: '2026-11-22T05:00:00.000Z', payload: { seq: i, agentId: agent } };
}

describe('Kafka consumer groups on the wire', () => {
  let double: KafkaWireDouble;
  let settings: KafkaSettings;
  const servers: GaiaKafkaServer[] = [];
  const handled: Handled[] = [];
  let failing = new Set<string>();

  beforeEach(async () => {
    double = new KafkaWireDouble({ [TOPIC]: 12, [`${TOPIC}.dlq`]: 3 });
    settings = { brokers: [await double.start()], clientId: 'gaia', ssl: false };
    handled.length = 0;
    failing = new Set();
  });

  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    await double.stop();
  });

  async function replica(name: string): Promise<GaiaKafkaServer> {
    const base = kafkaConsumerOptions('gateway', settings);
    const server = new GaiaKafkaServer(
      {
        ...base,
        client: { ...base.client!, clientId: `gaia-gateway-${name}`, logLevel: logLevel.NOTHING },
        // Short polls and heartbeats keep the test quick; the protocol is the same.
        consumer: { ...base.consumer!, heartbeatInterval: 100, sessionTimeout: 6_000, maxWaitTimeInMs: 50 },
      },
      { consumerGroup: 'gaia-gateway', maxAttempts: 2, delay: async () => undefined },
    );
    server.addHandler(
      TOPIC,
      (async (data: EventEnvelope, ctx: KafkaContext) => {
        if (failing.has(data.id)) throw { code: 'invalid_event', message: `bad ${data.id}`, status: 422 };
        handled.push({ replica: name, id: data.id, key: data.key!, seq: (data.payload as { seq: number }).seq, partition: ctx.getPartition() });
      }) as never,
      true,
    );
    await new Promise<void>((resolve, reject) => server.listen((err?: unknown) => (err ? reject(err) : resolve())));
    servers.push(server);
    return server;
  }

  async function publish(events: EventEnvelope[]): Promise<void> {
    const options = kafkaProducerOptions('ingestion', settings);
    const client = new ClientKafka({ ...options, client: { ...options.client!, logLevel: logLevel.NOTHING } });
    await client.connect();
    try {
      for (const e of events) await lastValueFrom(client.emit(TOPIC, toKafkaMessage(e)));
    } finally {
      await client.close();
    }
  }

  const stableWith = (members: number) =>
    waitFor(
      async () => double.group('gaia-gateway'),
      (g) => g?.state === 'Stable' && g.members.length === members,
      { timeoutMs: 30_000, what: `group gaia-gateway stable with ${members} members` },
    );
  const handledCount = (n: number) =>
    waitFor(
      async () => handled.length,
      (c) => c >= n,
      { timeoutMs: 30_000, what: `${n} handled events` },
    );

  function expectOncePerEventInOrderPerKey(events: EventEnvelope[]) {
    expect(handled.map((h) => h.id).sort()).toEqual(events.map((e) => e.id).sort());
    for (const key of new Set(events.map((e) => e.key!))) {
      const mine = handled.filter((h) => h.key === key);
      expect(new Set(mine.map((h) => h.partition)).size).toBe(1);
      expect(mine.map((h) => h.seq)).toEqual(events.filter((e) => e.key === key).map((e) => (e.payload as { seq: number }).seq));
    }
  }

  it('two replicas of a service share the partitions: each event is handled once, in order per agent', async () => {
    await replica('a');
    await replica('b');
    await stableWith(2);
    const agents = Array.from({ length: 24 }, (_, i) => `agent-${i}`);
    const events = Array.from({ length: 96 }, (_, i) => envelope(i, agents[i % agents.length]));
    await publish(events);
    await handledCount(events.length);

    expectOncePerEventInOrderPerKey(events);
    const partitionsOf = (r: string) => new Set(handled.filter((h) => h.replica === r).map((h) => h.partition));
    expect(partitionsOf('a').size).toBeGreaterThan(0);
    expect(partitionsOf('b').size).toBeGreaterThan(0);
    expect([...partitionsOf('a')].filter((p) => partitionsOf('b').has(p))).toEqual([]);
    expect(double.problems).toEqual([]);
  });

  it('when a replica leaves, the other continues from the committed offsets: nothing lost, nothing twice', async () => {
    await replica('a');
    const b = await replica('b');
    await stableWith(2);
    const first = Array.from({ length: 40 }, (_, i) => envelope(i, `agent-${i % 10}`));
    await publish(first);
    await handledCount(first.length);

    await b.close();
    servers.splice(servers.indexOf(b), 1);
    await stableWith(1);
    const second = Array.from({ length: 40 }, (_, i) => envelope(100 + i, `agent-${i % 10}`));
    await publish(second);
    await handledCount(first.length + second.length);

    expectOncePerEventInOrderPerKey([...first, ...second]);
    expect(handled.slice(first.length).every((h) => h.replica === 'a')).toBe(true);
    // Committed offsets cover every record. kafkajs commits after the handler returns (auto-commit), so the
    // last commits may land just after the handler ran: wait for them rather than read them at once.
    const uncommitted = async () => {
      const offsets = double.group('gaia-gateway')!.offsets;
      return double
        .recordsOf(TOPIC)
        .filter((r) => !(offsets[`${TOPIC}:${r.partition}`] > r.offset))
        .map((r) => `${r.partition}@${r.offset}`);
    };
    expect(await waitFor(uncommitted, (left) => left.length === 0, { what: 'offsets committed past every record' })).toEqual([]);
  });

  it('a failing event goes to the dead-letter topic and the partition moves on', async () => {
    await replica('a');
    await stableWith(1);
    const events = Array.from({ length: 6 }, (_, i) => envelope(i, 'agent-x'));
    failing.add('ev-2');
    await publish(events);
    await handledCount(5);
    await waitFor(
      async () => double.recordsOf(`${TOPIC}.dlq`).length,
      (n) => n === 1,
      { what: 'one dead letter' },
    );

    expect(handled.map((h) => h.id)).toEqual(['ev-0', 'ev-1', 'ev-3', 'ev-4', 'ev-5']);
    const [dead] = double.recordsOf(`${TOPIC}.dlq`);
    expect(dead.key?.toString()).toBe('agent-x');
    expect(JSON.parse(dead.value!.toString()).id).toBe('ev-2');
    expect(dead.headers).toMatchObject({
      'gaia-dlq-consumer-group': 'gaia-gateway',
      'gaia-dlq-original-topic': TOPIC,
      'gaia-dlq-attempts': '1',
      'gaia-dlq-error': 'invalid_event: bad ev-2',
    });
  });
});
