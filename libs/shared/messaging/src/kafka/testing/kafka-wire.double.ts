/**
 * A Kafka broker double speaking the Kafka wire protocol (TCP, port 0), enough for kafkajs producers
 * and consumer groups (and so for @nestjs/microservices ClientKafka / ServerKafka):
 * ApiVersions (v0-v2), Metadata (v0-v1), InitProducerId (v0), Produce (v3, RecordBatch v2 with CRC-32C,
 * varint records and headers), FindCoordinator (v0), JoinGroup (v1), SyncGroup (v0), Heartbeat (v0),
 * LeaveGroup (v0), OffsetCommit (v2), OffsetFetch (v1), ListOffsets (v1) and Fetch (v4, long polling).
 * It checks what a real broker checks for these requests (known topic and partition, CRC, idempotent
 * producer id and gap-free sequence numbers, group generation and membership), runs the group
 * coordinator's rebalance protocol (join round, leader-computed assignment, session expiry), and records
 * every produced record, so tests can assert topic, partition, key, headers and value of what kafkajs
 * actually put on the wire. One broker (node 1) leads every partition. Requests on a connection are
 * answered in order, as Kafka does.
 *
 * Formats: https://kafka.apache.org/protocol and https://kafka.apache.org/documentation/#recordbatch
 */
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ProducedRecord {
  topic: string;
  partition: number;
  offset: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
  timestamp: bigint;
  producerId: bigint;
  producerEpoch: number;
  sequence: number;
}

export interface ProduceRequestInfo {
  clientId: string | null;
  apiVersion: number;
  acks: number;
  timeoutMs: number;
  transactionalId: string | null;
}

const API = {
  Produce: 0,
  Fetch: 1,
  ListOffsets: 2,
  Metadata: 3,
  OffsetCommit: 8,
  OffsetFetch: 9,
  FindCoordinator: 10,
  JoinGroup: 11,
  Heartbeat: 12,
  LeaveGroup: 13,
  SyncGroup: 14,
  ApiVersions: 18,
  InitProducerId: 22,
} as const;
const SUPPORTED: Record<number, [number, number]> = {
  [API.Produce]: [3, 3],
  [API.Fetch]: [4, 4],
  [API.ListOffsets]: [1, 1],
  [API.Metadata]: [0, 1],
  [API.OffsetCommit]: [2, 2],
  [API.OffsetFetch]: [1, 1],
  [API.FindCoordinator]: [0, 0],
  [API.JoinGroup]: [1, 1],
  [API.Heartbeat]: [0, 0],
  [API.LeaveGroup]: [0, 0],
  [API.SyncGroup]: [0, 0],
  [API.ApiVersions]: [0, 2],
  [API.InitProducerId]: [0, 0],
};
const ERR = {
  NONE: 0,
  OFFSET_OUT_OF_RANGE: 1,
  CORRUPT_MESSAGE: 2,
  UNKNOWN_TOPIC_OR_PARTITION: 3,
  INVALID_REQUIRED_ACKS: 21,
  ILLEGAL_GENERATION: 22,
  UNKNOWN_MEMBER_ID: 25,
  REBALANCE_IN_PROGRESS: 27,
  UNSUPPORTED_VERSION: 35,
  OUT_OF_ORDER_SEQUENCE_NUMBER: 45,
  DUPLICATE_SEQUENCE_NUMBER: 46,
  UNKNOWN_PRODUCER_ID: 59,
} as const;

// --- CRC-32C (Castagnoli), as used by RecordBatch v2 ---------------------------------------------
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32c(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

class Reader {
  constructor(
    private readonly buf: Buffer,
    public pos = 0,
  ) {}
  get remaining() {
    return this.buf.length - this.pos;
  }
  int8() {
    const v = this.buf.readInt8(this.pos);
    this.pos += 1;
    return v;
  }
  int16() {
    const v = this.buf.readInt16BE(this.pos);
    this.pos += 2;
    return v;
  }
  int32() {
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  uint32() {
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  int64() {
    const v = this.buf.readBigInt64BE(this.pos);
    this.pos += 8;
    return v;
  }
  nullableString(): string | null {
    const len = this.int16();
    if (len < 0) return null;
    const s = this.buf.toString('utf8', this.pos, this.pos + len);
    this.pos += len;
    return s;
  }
  string(): string {
    const s = this.nullableString();
    if (s === null) throw new Error('null string where a string is required');
    return s;
  }
  bytes(): Buffer | null {
    const len = this.int32();
    if (len < 0) return null;
    return this.take(len);
  }
  take(n: number): Buffer {
    if (n > this.remaining) throw new Error('truncated');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  array<T>(read: (r: Reader) => T): T[] | null {
    const n = this.int32();
    if (n < 0) return null;
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(read(this));
    return out;
  }
  /** Zig-zag varint (up to 64 bits). */
  varlong(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
      shift += 7n;
      if (shift > 63n) throw new Error('varint too long');
    }
    return (result >> 1n) ^ -(result & 1n);
  }
  varint(): number {
    return Number(this.varlong());
  }
  varBytes(): Buffer | null {
    const len = this.varint();
    return len < 0 ? null : this.take(len);
  }
}

class Writer {
  private parts: Buffer[] = [];
  int8(v: number) {
    const b = Buffer.alloc(1);
    b.writeInt8(v);
    this.parts.push(b);
    return this;
  }
  int16(v: number) {
    const b = Buffer.alloc(2);
    b.writeInt16BE(v);
    this.parts.push(b);
    return this;
  }
  int32(v: number) {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v);
    this.parts.push(b);
    return this;
  }
  int64(v: bigint) {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(v);
    this.parts.push(b);
    return this;
  }
  bool(v: boolean) {
    return this.int8(v ? 1 : 0);
  }
  string(v: string | null) {
    if (v === null) return this.int16(-1);
    const b = Buffer.from(v, 'utf8');
    this.int16(b.length);
    this.parts.push(b);
    return this;
  }
  bytes(v: Buffer | null) {
    if (v === null) return this.int32(-1);
    this.int32(v.length);
    this.parts.push(v);
    return this;
  }
  array<T>(items: T[], write: (w: Writer, item: T) => void) {
    this.int32(items.length);
    for (const item of items) write(this, item);
    return this;
  }
  build(): Buffer {
    return Buffer.concat(this.parts);
  }
}

interface StoredBatch {
  baseOffset: number;
  /** Offset after the batch's last record. */
  nextOffset: number;
  /** The batch as produced, with its base offset set by the broker (the CRC does not cover it). */
  raw: Buffer;
}

interface TopicState {
  partitions: number;
  logs: ProducedRecord[][];
  batches: StoredBatch[][];
}

interface Member {
  id: string;
  clientId: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocolType: string;
  protocols: { name: string; metadata: Buffer }[];
  lastSeen: number;
}

interface Group {
  id: string;
  state: 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable';
  generation: number;
  protocol: string;
  leader: string;
  members: Map<string, Member>;
  /** Members that (re)joined in the current round, with the callbacks answering their JoinGroup. */
  joining: Map<string, (errorCode: number) => Buffer>;
  joinWaiters: Map<string, (response: Buffer) => void>;
  syncWaiters: Map<string, (response: Buffer) => void>;
  assignments: Map<string, Buffer>;
  rebalanceTimer?: NodeJS.Timeout;
  offsets: Map<string, bigint>;
}

export interface GroupSnapshot {
  state: Group['state'];
  generation: number;
  members: string[];
  /** Committed offsets by `topic:partition`. */
  offsets: Record<string, number>;
}

export class KafkaWireDouble {
  readonly records: ProducedRecord[] = [];
  readonly produceRequests: ProduceRequestInfo[] = [];
  /** Every request header, for assertions on what the client negotiated. */
  readonly requestLog: { apiKey: number; apiVersion: number; clientId: string | null }[] = [];
  readonly problems: string[] = [];
  private readonly topics = new Map<string, TopicState>();
  private readonly groups = new Map<string, Group>();
  private readonly sequences = new Map<string, number>();
  private readonly producerIds = new Set<bigint>();
  private readonly appended = new EventEmitter();
  /** Emits `group-stable` (groupId, GroupSnapshot) whenever a group completes a rebalance. */
  readonly events = new EventEmitter();
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextProducerId = 4000n;
  private server?: Server;
  private sweeper?: NodeJS.Timeout;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  readonly nodeId = 1;

  constructor(topics: Record<string, number> = {}) {
    this.appended.setMaxListeners(0);
    for (const [name, partitions] of Object.entries(topics)) this.createTopic(name, partitions);
  }

  createTopic(name: string, partitions: number): void {
    this.topics.set(name, { partitions, logs: Array.from({ length: partitions }, () => []), batches: Array.from({ length: partitions }, () => []) });
  }

  async start(): Promise<string> {
    this.server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    // Group coordinator: members that stop heartbeating past their session timeout leave the group.
    this.sweeper = setInterval(() => this.expireMembers(), 200);
    this.sweeper.unref();
    return `127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const g of this.groups.values()) if (g.rebalanceTimer) clearTimeout(g.rebalanceTimer);
    for (const s of this.sockets) s.destroy();
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  recordsOf(topic: string): ProducedRecord[] {
    return this.records.filter((r) => r.topic === topic);
  }

  group(id: string): GroupSnapshot | undefined {
    const g = this.groups.get(id);
    if (!g) return undefined;
    return {
      state: g.state,
      generation: g.generation,
      members: [...g.members.keys()],
      offsets: Object.fromEntries([...g.offsets].map(([k, v]) => [k, Number(v)])),
    };
  }

  private timer(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    // Kafka answers the requests of one connection in order: chain them.
    let chain: Promise<void> = Promise.resolve();
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const size = pending.readInt32BE(0);
        if (pending.length < 4 + size) break;
        const frame = Buffer.from(pending.subarray(4, 4 + size));
        pending = pending.subarray(4 + size);
        chain = chain.then(async () => {
          const response = await this.handle(frame).catch((err: Error) => {
            this.problems.push(err.message);
            socket.destroy();
            return undefined;
          });
          if (response && !socket.destroyed) {
            const header = Buffer.alloc(4);
            header.writeInt32BE(response.length);
            socket.write(Buffer.concat([header, response]));
          }
        });
      }
    });
  }

  private async handle(frame: Buffer): Promise<Buffer | undefined> {
    const r = new Reader(frame);
    const apiKey = r.int16();
    const apiVersion = r.int16();
    const correlationId = r.int32();
    const clientId = r.nullableString();
    this.requestLog.push({ apiKey, apiVersion, clientId });
    const head = new Writer().int32(correlationId).build();
    const supported = SUPPORTED[apiKey];
    if (!supported || apiVersion < supported[0] || apiVersion > supported[1]) {
      if (apiKey === API.ApiVersions) return Buffer.concat([head, this.apiVersions(0, ERR.UNSUPPORTED_VERSION)]);
      this.problems.push(`unsupported request api=${apiKey} v${apiVersion}`);
      return Buffer.concat([head, new Writer().int16(ERR.UNSUPPORTED_VERSION).build()]);
    }
    let body: Buffer | undefined;
    switch (apiKey) {
      case API.ApiVersions:
        body = this.apiVersions(apiVersion, ERR.NONE);
        break;
      case API.Metadata:
        body = this.metadata(apiVersion, r);
        break;
      case API.InitProducerId:
        body = this.initProducerId(r);
        break;
      case API.Produce:
        body = this.produce(r, clientId);
        break;
      case API.FindCoordinator:
        r.string();
        body = new Writer().int16(ERR.NONE).int32(this.nodeId).string('127.0.0.1').int32(this.port).build();
        break;
      case API.JoinGroup:
        body = await this.joinGroup(r, clientId ?? '');
        break;
      case API.SyncGroup:
        body = await this.syncGroup(r);
        break;
      case API.Heartbeat:
        body = this.heartbeat(r);
        break;
      case API.LeaveGroup:
        body = this.leaveGroup(r);
        break;
      case API.OffsetCommit:
        body = this.offsetCommit(r);
        break;
      case API.OffsetFetch:
        body = this.offsetFetch(r);
        break;
      case API.ListOffsets:
        body = this.listOffsets(r);
        break;
      case API.Fetch:
        body = await this.fetch(r);
        break;
    }
    return body ? Buffer.concat([head, body]) : undefined;
  }

  private apiVersions(version: number, errorCode: number): Buffer {
    const w = new Writer().int16(errorCode);
    w.array(Object.entries(SUPPORTED), (x, [key, [min, max]]) => x.int16(Number(key)).int16(min).int16(max));
    if (version >= 1) w.int32(0);
    return w.build();
  }

  private metadata(version: number, r: Reader): Buffer {
    const requested = r.array((x) => x.string());
    const names = requested === null || (version === 0 && requested.length === 0) ? [...this.topics.keys()] : requested;
    const w = new Writer();
    w.array([this.nodeId], (x, id) => {
      x.int32(id).string('127.0.0.1').int32(this.port);
      if (version >= 1) x.string(null); // rack
    });
    if (version >= 1) w.int32(this.nodeId); // controller id
    w.array(names, (x, name) => {
      const t = this.topics.get(name);
      x.int16(t ? ERR.NONE : ERR.UNKNOWN_TOPIC_OR_PARTITION).string(name);
      if (version >= 1) x.bool(false);
      x.array(t ? Array.from({ length: t.partitions }, (_, i) => i) : [], (y, p) => {
        y.int16(ERR.NONE).int32(p).int32(this.nodeId);
        y.array([this.nodeId], (z, id) => z.int32(id));
        y.array([this.nodeId], (z, id) => z.int32(id));
      });
    });
    return w.build();
  }

  private initProducerId(r: Reader): Buffer {
    const transactionalId = r.nullableString();
    r.int32(); // transaction timeout
    if (transactionalId !== null) this.problems.push(`unexpected transactional producer ${transactionalId}`);
    const id = this.nextProducerId++;
    this.producerIds.add(id);
    return new Writer().int32(0).int16(ERR.NONE).int64(id).int16(0).build();
  }

  // --- produce -----------------------------------------------------------------------------------

  private produce(r: Reader, clientId: string | null): Buffer | undefined {
    const transactionalId = r.nullableString();
    const acks = r.int16();
    const timeoutMs = r.int32();
    this.produceRequests.push({ clientId, apiVersion: 3, acks, timeoutMs, transactionalId });
    const topics =
      r.array((t) => ({
        topic: t.string(),
        partitions: t.array((p) => ({ partition: p.int32(), recordSet: p.bytes() })) ?? [],
      })) ?? [];
    const responses = topics.map(({ topic, partitions }) => ({
      topic,
      partitions: partitions.map(({ partition, recordSet }) => {
        if (![0, 1, -1].includes(acks)) return { partition, errorCode: ERR.INVALID_REQUIRED_ACKS, baseOffset: -1n };
        const state = this.topics.get(topic);
        if (!state || partition < 0 || partition >= state.partitions) return { partition, errorCode: ERR.UNKNOWN_TOPIC_OR_PARTITION, baseOffset: -1n };
        return this.append(topic, partition, state, recordSet ?? Buffer.alloc(0));
      }),
    }));
    if (acks === 0) return undefined;
    return new Writer()
      .array(responses, (w, t) => w.string(t.topic).array(t.partitions, (x, p) => x.int32(p.partition).int16(p.errorCode).int64(p.baseOffset).int64(-1n)))
      .int32(0)
      .build();
  }

  private append(topic: string, partition: number, state: TopicState, recordSet: Buffer): { partition: number; errorCode: number; baseOffset: bigint } {
    const fail = (errorCode: number, why: string) => {
      this.problems.push(`${topic}[${partition}]: ${why}`);
      return { partition, errorCode, baseOffset: -1n };
    };
    const log = state.logs[partition];
    const baseOffset = BigInt(log.length);
    const batches = new Reader(recordSet);
    const appended: ProducedRecord[] = [];
    const stored: StoredBatch[] = [];
    const sequenceUpdates = new Map<string, number>();
    while (batches.remaining > 0) {
      batches.int64(); // base offset (assigned by the broker)
      const batchLength = batches.int32();
      const bodyWithHeader = batches.take(batchLength);
      const batch = new Reader(bodyWithHeader);
      batch.int32(); // partition leader epoch
      const magic = batch.int8();
      if (magic !== 2) return fail(ERR.CORRUPT_MESSAGE, `magic ${magic}: only RecordBatch v2 is accepted`);
      const crc = batch.uint32();
      const body = batch.take(batch.remaining);
      if (crc32c(body) !== crc) return fail(ERR.CORRUPT_MESSAGE, 'CRC-32C mismatch');
      const rb = new Reader(body);
      const attributes = rb.int16();
      if ((attributes & 0x07) !== 0) return fail(ERR.CORRUPT_MESSAGE, `compression ${attributes & 0x07} is not supported by the double`);
      rb.int32(); // last offset delta
      const firstTimestamp = rb.int64();
      rb.int64(); // max timestamp
      const producerId = rb.int64();
      const producerEpoch = rb.int16();
      const baseSequence = rb.int32();
      const count = rb.int32();
      if (producerId >= 0n) {
        if (!this.producerIds.has(producerId)) return fail(ERR.UNKNOWN_PRODUCER_ID, `unknown producer id ${producerId}`);
        const key = `${producerId}:${topic}:${partition}`;
        const expected = sequenceUpdates.get(key) ?? this.sequences.get(key) ?? 0;
        if (baseSequence < expected) return fail(ERR.DUPLICATE_SEQUENCE_NUMBER, `duplicate sequence ${baseSequence} (expected ${expected})`);
        if (baseSequence > expected) return fail(ERR.OUT_OF_ORDER_SEQUENCE_NUMBER, `sequence ${baseSequence} skips ahead of ${expected}`);
        sequenceUpdates.set(key, expected + count);
      }
      const firstOffset = log.length + appended.length;
      for (let i = 0; i < count; i++) {
        const length = rb.varint();
        const rec = new Reader(rb.take(length));
        rec.int8(); // attributes
        const timestampDelta = rec.varlong();
        const offsetDelta = rec.varint();
        const k = rec.varBytes();
        const v = rec.varBytes();
        const headerCount = rec.varint();
        const headers: Record<string, string> = {};
        for (let h = 0; h < headerCount; h++) {
          const hk = rec.varBytes();
          const hv = rec.varBytes();
          headers[hk?.toString('utf8') ?? ''] = hv?.toString('utf8') ?? '';
        }
        if (rec.remaining !== 0) return fail(ERR.CORRUPT_MESSAGE, 'record length does not match its fields');
        appended.push({
          topic,
          partition,
          offset: firstOffset + offsetDelta,
          key: k ? Buffer.from(k) : null,
          value: v ? Buffer.from(v) : null,
          headers,
          timestamp: firstTimestamp + timestampDelta,
          producerId,
          producerEpoch,
          sequence: producerId >= 0n ? baseSequence + offsetDelta : -1,
        });
      }
      const raw = Buffer.concat([new Writer().int64(BigInt(firstOffset)).int32(batchLength).build(), bodyWithHeader]);
      stored.push({ baseOffset: firstOffset, nextOffset: firstOffset + count, raw });
    }
    for (const [k, v] of sequenceUpdates) this.sequences.set(k, v);
    log.push(...appended);
    state.batches[partition].push(...stored);
    this.records.push(...appended);
    this.appended.emit('append', topic, partition);
    return { partition, errorCode: ERR.NONE, baseOffset };
  }

  // --- consumer groups ---------------------------------------------------------------------------

  private groupOf(id: string): Group {
    let g = this.groups.get(id);
    if (!g) {
      g = {
        id,
        state: 'Empty',
        generation: 0,
        protocol: '',
        leader: '',
        members: new Map(),
        joining: new Map(),
        joinWaiters: new Map(),
        syncWaiters: new Map(),
        assignments: new Map(),
        offsets: new Map(),
      };
      this.groups.set(id, g);
    }
    return g;
  }

  private prepareRebalance(g: Group): void {
    if (g.state === 'PreparingRebalance') return;
    // Members waiting in SyncGroup must rejoin.
    for (const [, answer] of g.syncWaiters) answer(new Writer().int16(ERR.REBALANCE_IN_PROGRESS).bytes(Buffer.alloc(0)).build());
    g.syncWaiters.clear();
    g.assignments.clear();
    g.state = 'PreparingRebalance';
    const timeout = Math.max(1000, ...[...g.members.values()].map((m) => m.rebalanceTimeoutMs));
    if (g.rebalanceTimer) clearTimeout(g.rebalanceTimer);
    g.rebalanceTimer = setTimeout(() => {
      // Members that did not rejoin in time are out.
      for (const id of [...g.members.keys()]) if (!g.joinWaiters.has(id)) g.members.delete(id);
      this.completeJoin(g);
    }, timeout);
    g.rebalanceTimer.unref();
  }

  private completeJoin(g: Group): void {
    if (g.state !== 'PreparingRebalance') return;
    if ([...g.members.keys()].some((id) => !g.joinWaiters.has(id))) return;
    if (g.rebalanceTimer) clearTimeout(g.rebalanceTimer);
    g.rebalanceTimer = undefined;
    if (g.members.size === 0) {
      g.state = 'Empty';
      return;
    }
    g.generation++;
    const members = [...g.members.values()];
    if (!g.members.has(g.leader)) g.leader = members[0].id;
    const common = members[0].protocols.map((p) => p.name).find((name) => members.every((m) => m.protocols.some((p) => p.name === name)));
    g.protocol = common ?? members[0].protocols[0]?.name ?? '';
    g.state = 'CompletingRebalance';
    for (const m of members) {
      const w = new Writer().int16(ERR.NONE).int32(g.generation).string(g.protocol).string(g.leader).string(m.id);
      const list = m.id === g.leader ? members : [];
      w.array(list, (x, member) => x.string(member.id).bytes(member.protocols.find((p) => p.name === g.protocol)?.metadata ?? Buffer.alloc(0)));
      g.joinWaiters.get(m.id)!(w.build());
      m.lastSeen = Date.now();
    }
    g.joinWaiters.clear();
  }

  private joinGroup(r: Reader, clientId: string): Promise<Buffer> {
    const groupId = r.string();
    const sessionTimeoutMs = r.int32();
    const rebalanceTimeoutMs = r.int32();
    let memberId = r.string();
    const protocolType = r.string();
    const protocols = r.array((x) => ({ name: x.string(), metadata: x.bytes() ?? Buffer.alloc(0) })) ?? [];
    const g = this.groupOf(groupId);
    if (memberId && !g.members.has(memberId)) {
      return Promise.resolve(
        new Writer()
          .int16(ERR.UNKNOWN_MEMBER_ID)
          .int32(-1)
          .string('')
          .string('')
          .string('')
          .array([], () => undefined)
          .build(),
      );
    }
    if (!memberId) memberId = `${clientId}-${randomUUID()}`;
    g.members.set(memberId, { id: memberId, clientId, sessionTimeoutMs, rebalanceTimeoutMs, protocolType, protocols, lastSeen: Date.now() });
    return new Promise<Buffer>((resolve) => {
      g.joinWaiters.get(memberId)?.(
        new Writer()
          .int16(ERR.REBALANCE_IN_PROGRESS)
          .int32(-1)
          .string('')
          .string('')
          .string(memberId)
          .array([], () => undefined)
          .build(),
      );
      g.joinWaiters.set(memberId, resolve);
      this.prepareRebalance(g);
      this.completeJoin(g);
    });
  }

  private syncGroup(r: Reader): Promise<Buffer> {
    const groupId = r.string();
    const generation = r.int32();
    const memberId = r.string();
    const assignments = r.array((x) => ({ memberId: x.string(), assignment: x.bytes() ?? Buffer.alloc(0) })) ?? [];
    const g = this.groupOf(groupId);
    const reply = (code: number, assignment?: Buffer) =>
      new Writer()
        .int16(code)
        .bytes(assignment ?? Buffer.alloc(0))
        .build();
    if (!g.members.has(memberId)) return Promise.resolve(reply(ERR.UNKNOWN_MEMBER_ID));
    if (g.state === 'PreparingRebalance') return Promise.resolve(reply(ERR.REBALANCE_IN_PROGRESS));
    if (generation !== g.generation) return Promise.resolve(reply(ERR.ILLEGAL_GENERATION));
    g.members.get(memberId)!.lastSeen = Date.now();
    return new Promise<Buffer>((resolve) => {
      if (g.state === 'Stable') {
        resolve(reply(ERR.NONE, g.assignments.get(memberId)));
        return;
      }
      g.syncWaiters.set(memberId, resolve);
      if (memberId === g.leader) {
        for (const a of assignments) g.assignments.set(a.memberId, a.assignment);
        g.state = 'Stable';
        for (const [id, answer] of g.syncWaiters) answer(reply(ERR.NONE, g.assignments.get(id)));
        g.syncWaiters.clear();
        this.events.emit('group-stable', g.id, this.group(g.id));
      }
    });
  }

  private heartbeat(r: Reader): Buffer {
    const groupId = r.string();
    const generation = r.int32();
    const memberId = r.string();
    const g = this.groupOf(groupId);
    const member = g.members.get(memberId);
    if (!member) return new Writer().int16(ERR.UNKNOWN_MEMBER_ID).build();
    member.lastSeen = Date.now();
    if (g.state === 'PreparingRebalance') return new Writer().int16(ERR.REBALANCE_IN_PROGRESS).build();
    if (generation !== g.generation) return new Writer().int16(ERR.ILLEGAL_GENERATION).build();
    return new Writer().int16(ERR.NONE).build();
  }

  private leaveGroup(r: Reader): Buffer {
    const groupId = r.string();
    const memberId = r.string();
    const g = this.groupOf(groupId);
    if (!g.members.delete(memberId)) return new Writer().int16(ERR.UNKNOWN_MEMBER_ID).build();
    g.joinWaiters.delete(memberId);
    g.syncWaiters.delete(memberId);
    if (g.members.size === 0) {
      if (g.rebalanceTimer) clearTimeout(g.rebalanceTimer);
      g.state = 'Empty';
    } else {
      this.prepareRebalance(g);
      this.completeJoin(g);
    }
    return new Writer().int16(ERR.NONE).build();
  }

  private expireMembers(): void {
    const now = Date.now();
    for (const g of this.groups.values()) {
      if (g.state === 'PreparingRebalance') continue;
      const expired = [...g.members.values()].filter((m) => now - m.lastSeen > m.sessionTimeoutMs);
      if (expired.length === 0) continue;
      for (const m of expired) g.members.delete(m.id);
      if (g.members.size === 0) g.state = 'Empty';
      else this.prepareRebalance(g);
    }
  }

  private offsetCommit(r: Reader): Buffer {
    const groupId = r.string();
    const generation = r.int32();
    const memberId = r.string();
    r.int64(); // retention time
    const topics =
      r.array((t) => ({ topic: t.string(), partitions: t.array((p) => ({ partition: p.int32(), offset: p.int64(), metadata: p.nullableString() })) ?? [] })) ??
      [];
    const g = this.groupOf(groupId);
    let code: number = ERR.NONE;
    if (generation >= 0) {
      if (!g.members.has(memberId)) code = ERR.UNKNOWN_MEMBER_ID;
      else if (g.state === 'PreparingRebalance') code = ERR.REBALANCE_IN_PROGRESS;
      else if (generation !== g.generation) code = ERR.ILLEGAL_GENERATION;
    }
    if (code === ERR.NONE) for (const t of topics) for (const p of t.partitions) g.offsets.set(`${t.topic}:${p.partition}`, p.offset);
    return new Writer().array(topics, (w, t) => w.string(t.topic).array(t.partitions, (x, p) => x.int32(p.partition).int16(code))).build();
  }

  private offsetFetch(r: Reader): Buffer {
    const groupId = r.string();
    const topics = r.array((t) => ({ topic: t.string(), partitions: t.array((p) => p.int32()) ?? [] })) ?? [];
    const g = this.groupOf(groupId);
    return new Writer()
      .array(topics, (w, t) =>
        w.string(t.topic).array(t.partitions, (x, p) => {
          const offset = g.offsets.get(`${t.topic}:${p}`) ?? -1n;
          x.int32(p).int64(offset).string('').int16(ERR.NONE);
        }),
      )
      .build();
  }

  private listOffsets(r: Reader): Buffer {
    r.int32(); // replica id
    const topics = r.array((t) => ({ topic: t.string(), partitions: t.array((p) => ({ partition: p.int32(), timestamp: p.int64() })) ?? [] })) ?? [];
    return new Writer()
      .array(topics, (w, t) => {
        const state = this.topics.get(t.topic);
        w.string(t.topic).array(t.partitions, (x, p) => {
          if (!state || p.partition >= state.partitions) {
            x.int32(p.partition).int16(ERR.UNKNOWN_TOPIC_OR_PARTITION).int64(-1n).int64(-1n);
            return;
          }
          const end = BigInt(state.logs[p.partition].length);
          // -2 = earliest, -1 = latest; by timestamp: the first record at or after it
          const offset =
            p.timestamp === -2n
              ? 0n
              : p.timestamp === -1n
                ? end
                : BigInt(state.logs[p.partition].find((rec) => rec.timestamp >= p.timestamp)?.offset ?? Number(end));
          x.int32(p.partition).int16(ERR.NONE).int64(-1n).int64(offset);
        });
      })
      .build();
  }

  private async fetch(r: Reader): Promise<Buffer> {
    r.int32(); // replica id
    const maxWaitMs = r.int32();
    r.int32(); // min bytes
    const maxBytes = r.int32();
    r.int8(); // isolation level
    const topics =
      r.array((t) => ({ topic: t.string(), partitions: t.array((p) => ({ partition: p.int32(), offset: p.int64(), maxBytes: p.int32() })) ?? [] })) ?? [];
    const collect = () => {
      let total = 0;
      const out = topics.map((t) => ({
        topic: t.topic,
        partitions: t.partitions.map((p) => {
          const state = this.topics.get(t.topic);
          if (!state || p.partition >= state.partitions)
            return { partition: p.partition, errorCode: ERR.UNKNOWN_TOPIC_OR_PARTITION, hw: -1n, records: Buffer.alloc(0) };
          const end = state.logs[p.partition].length;
          const offset = Number(p.offset);
          if (offset > end || offset < 0) return { partition: p.partition, errorCode: ERR.OFFSET_OUT_OF_RANGE, hw: BigInt(end), records: Buffer.alloc(0) };
          const parts: Buffer[] = [];
          let size = 0;
          for (const b of state.batches[p.partition]) {
            if (b.nextOffset <= offset) continue;
            if (parts.length > 0 && (size + b.raw.length > p.maxBytes || total + size + b.raw.length > maxBytes)) break;
            parts.push(b.raw);
            size += b.raw.length;
          }
          total += size;
          return { partition: p.partition, errorCode: ERR.NONE, hw: BigInt(end), records: Buffer.concat(parts) };
        }),
      }));
      return { out, total };
    };
    let result = collect();
    if (result.total === 0 && maxWaitMs > 0 && this.server) {
      // Long poll: answer when one of the requested partitions gets data, or after max_wait_time.
      await new Promise<void>((resolve) => {
        const wanted = new Set(topics.flatMap((t) => t.partitions.map((p) => `${t.topic}:${p.partition}`)));
        const onAppend = (topic: string, partition: number) => {
          if (!wanted.has(`${topic}:${partition}`)) return;
          done();
        };
        const t = this.timer(maxWaitMs, () => done());
        const done = () => {
          clearTimeout(t);
          this.timers.delete(t);
          this.appended.off('append', onAppend);
          resolve();
        };
        this.appended.on('append', onAppend);
      });
      result = collect();
    }
    return new Writer()
      .int32(0)
      .array(result.out, (w, t) =>
        w.string(t.topic).array(t.partitions, (x, p) => {
          x.int32(p.partition).int16(p.errorCode).int64(p.hw).int64(p.hw);
          x.array([], () => undefined); // aborted transactions
          x.bytes(p.records);
        }),
      )
      .build();
  }
}
