/**
 * A Kafka broker double speaking enough of the Kafka wire protocol (TCP, port 0) for producers:
 * ApiVersions (v0-v2), Metadata (v0-v1), InitProducerId (v0) and Produce (v3, RecordBatch v2 with
 * CRC-32C, varint records and headers). It checks what a real broker checks for these requests (known
 * topic and partition, CRC, idempotent producer id and gap-free sequence numbers) and records every
 * produced record and request header, so tests can assert topic, partition, key, headers and value of
 * what kafkajs (and @nestjs/microservices on top of it) actually put on the wire. Consumer APIs are not
 * implemented (a consumer connecting here gets UNSUPPORTED_VERSION).
 *
 * Formats: https://kafka.apache.org/protocol and https://kafka.apache.org/documentation/#recordbatch
 */
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

const API = { Produce: 0, Metadata: 3, ApiVersions: 18, InitProducerId: 22 } as const;
const SUPPORTED: Record<number, [number, number]> = {
  [API.Produce]: [3, 3],
  [API.Metadata]: [0, 1],
  [API.ApiVersions]: [0, 2],
  [API.InitProducerId]: [0, 0],
};
const ERR = { NONE: 0, CORRUPT_MESSAGE: 2, UNKNOWN_TOPIC_OR_PARTITION: 3, INVALID_REQUIRED_ACKS: 21, UNSUPPORTED_VERSION: 35, OUT_OF_ORDER_SEQUENCE_NUMBER: 45, DUPLICATE_SEQUENCE_NUMBER: 46, UNKNOWN_PRODUCER_ID: 59 } as const;

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
  array<T>(items: T[], write: (w: Writer, item: T) => void) {
    this.int32(items.length);
    for (const item of items) write(this, item);
    return this;
  }
  build(): Buffer {
    return Buffer.concat(this.parts);
  }
}

interface TopicState {
  partitions: number;
  logs: ProducedRecord[][];
}

export class KafkaWireDouble {
  readonly records: ProducedRecord[] = [];
  readonly produceRequests: ProduceRequestInfo[] = [];
  /** api key → versions requested, for assertions on what the client negotiated. */
  readonly requestLog: { apiKey: number; apiVersion: number; clientId: string | null }[] = [];
  readonly problems: string[] = [];
  private readonly topics = new Map<string, TopicState>();
  private readonly sequences = new Map<string, number>();
  private readonly producerIds = new Set<bigint>();
  private nextProducerId = 4000n;
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  readonly nodeId = 1;

  constructor(topics: Record<string, number> = {}) {
    for (const [name, partitions] of Object.entries(topics)) this.createTopic(name, partitions);
  }

  createTopic(name: string, partitions: number): void {
    this.topics.set(name, { partitions, logs: Array.from({ length: partitions }, () => []) });
  }

  async start(): Promise<string> {
    this.server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return `127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  recordsOf(topic: string): ProducedRecord[] {
    return this.records.filter((r) => r.topic === topic);
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const size = pending.readInt32BE(0);
        if (pending.length < 4 + size) break;
        const frame = pending.subarray(4, 4 + size);
        pending = pending.subarray(4 + size);
        const response = this.handle(frame);
        if (response) {
          const header = Buffer.alloc(4);
          header.writeInt32BE(response.length);
          socket.write(Buffer.concat([header, response]));
        }
      }
    });
  }

  private handle(frame: Buffer): Buffer | undefined {
    const r = new Reader(frame);
    const apiKey = r.int16();
    const apiVersion = r.int16();
    const correlationId = r.int32();
    const clientId = r.nullableString();
    this.requestLog.push({ apiKey, apiVersion, clientId });
    const head = new Writer().int32(correlationId);
    const supported = SUPPORTED[apiKey];
    if (!supported || apiVersion < supported[0] || apiVersion > supported[1]) {
      if (apiKey === API.ApiVersions) return Buffer.concat([head.build(), this.apiVersions(0, ERR.UNSUPPORTED_VERSION)]);
      this.problems.push(`unsupported request api=${apiKey} v${apiVersion}`);
      return Buffer.concat([head.build(), new Writer().int16(ERR.UNSUPPORTED_VERSION).build()]);
    }
    try {
      switch (apiKey) {
        case API.ApiVersions:
          return Buffer.concat([head.build(), this.apiVersions(apiVersion, ERR.NONE)]);
        case API.Metadata:
          return Buffer.concat([head.build(), this.metadata(apiVersion, r)]);
        case API.InitProducerId:
          return Buffer.concat([head.build(), this.initProducerId(r)]);
        case API.Produce: {
          const body = this.produce(r, clientId);
          return body ? Buffer.concat([head.build(), body]) : undefined;
        }
      }
    } catch (err) {
      this.problems.push(`api=${apiKey}: ${(err as Error).message}`);
      throw err;
    }
    return undefined;
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

  private produce(r: Reader, clientId: string | null): Buffer | undefined {
    const transactionalId = r.nullableString();
    const acks = r.int16();
    const timeoutMs = r.int32();
    this.produceRequests.push({ clientId, apiVersion: 3, acks, timeoutMs, transactionalId });
    const topics = r.array((t) => ({
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
      .array(responses, (w, t) =>
        w.string(t.topic).array(t.partitions, (x, p) => x.int32(p.partition).int16(p.errorCode).int64(p.baseOffset).int64(-1n)),
      )
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
    while (batches.remaining > 0) {
      batches.int64(); // base offset (assigned by the broker)
      const batchLength = batches.int32();
      const batch = new Reader(batches.take(batchLength));
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
        const expected = this.sequences.get(key) ?? 0;
        if (baseSequence < expected) return fail(ERR.DUPLICATE_SEQUENCE_NUMBER, `duplicate sequence ${baseSequence} (expected ${expected})`);
        if (baseSequence > expected) return fail(ERR.OUT_OF_ORDER_SEQUENCE_NUMBER, `sequence ${baseSequence} skips ahead of ${expected}`);
        this.sequences.set(key, expected + count);
      }
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
          offset: log.length + appended.length,
          key: k ? Buffer.from(k) : null,
          value: v ? Buffer.from(v) : null,
          headers,
          timestamp: firstTimestamp + timestampDelta,
          producerId,
          producerEpoch,
          sequence: producerId >= 0n ? baseSequence + offsetDelta : -1,
        });
      }
    }
    log.push(...appended);
    this.records.push(...appended);
    return { partition, errorCode: ERR.NONE, baseOffset };
  }
}
