import { ClientKafka, ClientNats, ServerNats, type ClientProxy, type CustomTransportStrategy, type Server } from '@nestjs/microservices';
import type { ConsumerName } from '@gaia/contracts';
import { InProcessBus, InProcessClient, InProcessServer } from './inprocess/in-process.transport';
import type { MessagingOptions } from './messaging-options';
import { GaiaKafkaServer, kafkaProducerOptions, type KafkaSettings } from './kafka';

export type TransportServer = Server & CustomTransportStrategy;

/** The part of a @nestjs/microservices ClientProxy the platform uses (any transport's client fits). */
export interface MessagingClient {
  send: ClientProxy['send'];
  emit: ClientProxy['emit'];
  connect(): Promise<unknown>;
  close(): unknown;
}

export interface Transports {
  /** Serves RPCs (and events on request/ack transports). */
  rpcServer: TransportServer;
  /** Sends RPCs (and delivers events on request/ack transports). */
  rpcClient: MessagingClient;
  /** Kafka only: one consumer-group server per hosted consumer, and the producer. */
  eventServers: Map<ConsumerName, TransportServer>;
  eventProducer?: MessagingClient;
  requestAck: boolean;
}

/** NATS queue group shared by replicas: subjects already name the consumer group, so one queue name fits all. */
export const NATS_QUEUE = 'gaia';

export function createTransports(o: MessagingOptions): Transports {
  if (o.transport === 'inprocess') {
    const bus = new InProcessBus();
    return {
      rpcServer: new InProcessServer(bus),
      rpcClient: new InProcessClient(bus) as unknown as MessagingClient,
      eventServers: new Map(),
      requestAck: true,
    };
  }
  const servers = (o.natsUrl ?? 'nats://127.0.0.1:4222').split(',').map((s) => s.trim());
  const natsServer = new ServerNats({ servers, queue: NATS_QUEUE, name: `${o.processName}-server` }) as TransportServer;
  const natsClient = new ClientNats({ servers, name: `${o.processName}-client` }) as unknown as MessagingClient;
  if (o.transport === 'nats') return { rpcServer: natsServer, rpcClient: natsClient, eventServers: new Map(), requestAck: true };

  // Kafka: events on Kafka topics (one consumer group per service, dead-letter topic on repeated
  // failure), RPC stays on NATS request/reply. See docs/kafka-topics.md.
  const k = o.kafka;
  if (!k) throw new Error('MESSAGING_TRANSPORT=kafka needs KAFKA_BROKERS');
  const settings: KafkaSettings = { brokers: k.brokers, clientId: k.clientId, ssl: !!k.ssl, sasl: k.sasl as KafkaSettings['sasl'] };
  const eventServers = new Map<ConsumerName, TransportServer>();
  for (const consumer of o.consumers) eventServers.set(consumer, GaiaKafkaServer.forConsumer(consumer, settings) as unknown as TransportServer);
  const eventProducer = new ClientKafka(kafkaProducerOptions(o.processName, settings)) as unknown as MessagingClient;
  return { rpcServer: natsServer, rpcClient: natsClient, eventServers, eventProducer, requestAck: false };
}
