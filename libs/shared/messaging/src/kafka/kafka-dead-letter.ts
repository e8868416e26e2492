/**
 * Retries with a dead-letter topic for Kafka event handlers. A failing handler is retried in place
 * (the partition waits: order per key is kept) up to `maxAttempts`; then the record is published to
 * `<topic>.dlq` with its key, value and headers plus the failure headers, and the offset moves on.
 * Poison events (invalid payloads, other non-retriable 4xx) go to the dead-letter topic at once.
 * If publishing the dead letter fails, the error reaches kafkajs, which re-delivers the record: nothing
 * is lost.
 */
import type { KafkaContext } from '@nestjs/microservices';
import { deadLetterTopic } from './kafka-topics';
import { KAFKA_ACKS_ALL, KAFKA_SEND_TIMEOUT_MS } from './kafka-options.factory';
import { KAFKA_HEADERS, headerValue } from './kafka-message';

export interface DeadLetterOptions {
  consumerGroup: string;
  /** Handler attempts before dead-lettering (default 5). */
  maxAttempts?: number;
  /** Wait before attempt n+1 (default 200 ms · 2^(n-1), at most 5 s). */
  backoffMs?: (attempt: number) => number;
  delay?: (ms: number) => Promise<void>;
  isPoison?: (err: unknown) => boolean;
  now?: () => Date;
  onDeadLetter?: (info: { topic: string; partition: number; offset: string; attempts: number; error: string }) => void;
}

export type KafkaEventHandler = (data: unknown, ctx: KafkaContext) => unknown;

/** Errors that a retry cannot fix: invalid events and client errors (except conflicts and rate limits). */
export function isPoisonError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; status?: unknown };
  if (e.code === 'invalid_event') return true;
  return typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.status !== 409 && e.status !== 429;
}

export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; message?: unknown };
    if (typeof e.message === 'string') return typeof e.code === 'string' ? `${e.code}: ${e.message}` : e.message;
    return JSON.stringify(err);
  }
  return String(err);
}

const defaultBackoff = (attempt: number) => Math.min(5_000, 200 * 2 ** (attempt - 1));
const defaultDelay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function encodeValue(value: unknown): Buffer | string | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value) || typeof value === 'string') return value;
  return JSON.stringify(value);
}

export function withDeadLetter(handler: KafkaEventHandler, options: DeadLetterOptions): KafkaEventHandler {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  const backoff = options.backoffMs ?? defaultBackoff;
  const delay = options.delay ?? defaultDelay;
  const isPoison = options.isPoison ?? isPoisonError;
  const now = options.now ?? (() => new Date());
  return async (data: unknown, ctx: KafkaContext) => {
    let attempts = 0;
    let lastError: unknown;
    for (;;) {
      attempts++;
      try {
        return await handler(data, ctx);
      } catch (err) {
        lastError = err;
        if (isPoison(err) || attempts >= maxAttempts) break;
        await delay(backoff(attempts));
        await ctx.getHeartbeat()();
      }
    }
    const message = ctx.getMessage();
    const topic = ctx.getTopic();
    const partition = ctx.getPartition();
    const error = describeError(lastError);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(message.headers ?? {})) {
      const v = headerValue(value);
      if (v !== undefined) headers[name] = v;
    }
    Object.assign(headers, {
      [KAFKA_HEADERS.dlqConsumerGroup]: options.consumerGroup,
      [KAFKA_HEADERS.dlqOriginalTopic]: topic,
      [KAFKA_HEADERS.dlqOriginalPartition]: String(partition),
      [KAFKA_HEADERS.dlqOriginalOffset]: String(message.offset),
      [KAFKA_HEADERS.dlqAttempts]: String(attempts),
      [KAFKA_HEADERS.dlqError]: error.slice(0, 2_000),
      [KAFKA_HEADERS.dlqFailedAt]: now().toISOString(),
    });
    await ctx.getProducer().send({
      topic: deadLetterTopic(topic),
      acks: KAFKA_ACKS_ALL,
      timeout: KAFKA_SEND_TIMEOUT_MS,
      messages: [{ key: message.key === null || message.key === undefined ? null : encodeValue(message.key), value: encodeValue(message.value), headers }],
    });
    options.onDeadLetter?.({ topic, partition, offset: String(message.offset), attempts, error });
    return undefined;
  };
}
