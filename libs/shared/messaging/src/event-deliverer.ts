import { lastValueFrom, timeout } from 'rxjs';
import type { MessagingClient } from './transport.factory';
import type { EventEnvelope } from '@gaia/contracts';
import { eventPattern } from './patterns';
import { BROKER_SUBSCRIBER } from './outbox';

/** Hands one event to one consumer group; resolves once it is durably accepted (applied, or acked by Kafka). */
export interface EventDeliverer {
  deliver(subscriber: string, envelope: EventEnvelope): Promise<void>;
}

export class DeliveryRejected extends Error {
  constructor(
    message: string,
    readonly poison: boolean,
  ) {
    super(message);
  }
}

function describe(err: unknown): { message: string; poison: boolean } {
  if (err && typeof err === 'object') {
    const e = err as { code?: string; message?: string; status?: number };
    return { message: e.message ?? JSON.stringify(err), poison: e.code === 'invalid_event' };
  }
  return { message: String(err), poison: false };
}

/** Request/ack delivery (in-process, NATS): the consumer answers after its transaction committed. */
export class RequestAckDeliverer implements EventDeliverer {
  constructor(
    private readonly client: MessagingClient,
    private readonly timeoutMs: number,
    private readonly namespace = 'gaia',
  ) {}
  async deliver(subscriber: string, envelope: EventEnvelope): Promise<void> {
    try {
      const res = await lastValueFrom(this.client.send(eventPattern(subscriber, envelope.topic, this.namespace), envelope).pipe(timeout(this.timeoutMs)));
      if (!res || (res as { ack?: boolean }).ack !== true) throw new DeliveryRejected('consumer did not acknowledge', false);
    } catch (err) {
      if (err instanceof DeliveryRejected) throw err;
      const d = describe(err);
      throw new DeliveryRejected(d.message, d.poison);
    }
  }
}

/** Kafka delivery: the broker keeps the event; consumer groups read it at their pace. */
export class KafkaDeliverer implements EventDeliverer {
  constructor(private readonly producer: MessagingClient) {}
  async deliver(subscriber: string, envelope: EventEnvelope): Promise<void> {
    if (subscriber !== BROKER_SUBSCRIBER) throw new DeliveryRejected(`unexpected subscriber ${subscriber} on kafka`, true);
    await lastValueFrom(
      this.producer.emit(envelope.topic, {
        key: envelope.key ?? envelope.id,
        value: envelope,
        headers: { 'gaia-event-id': envelope.id, 'gaia-topic': envelope.topic, ...(envelope.requestId ? { 'x-request-id': envelope.requestId } : {}) },
      }),
    );
  }
}
