import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { MessagingActivity } from './activity';
import { KafkaDeliverer, RequestAckDeliverer } from './event-deliverer';
import { InboxService } from './inbox.service';
import { PostgresJobQueue } from './job-queue';
import type { MessagingOptions } from './messaging-options';
import { MessagingHost } from './messaging.host';
import { PostgresOutbox } from './outbox';
import { TransportRpcClient } from './rpc-client';
import { EVENT_DELIVERER, JOB_QUEUE, MESSAGING_OPTIONS, OUTBOX, RPC_CLIENT, TRANSPORTS } from './tokens';
import { createTransports, type Transports } from './transport.factory';
import { MessagingDrain } from './drain';
import { MESSAGING_STATUS, PostgresMessagingStatus } from './messaging-status.repository';

/**
 * Events (transactional outbox → transport → inbox), typed RPC between services and durable jobs.
 * Needs DatabaseModule (global) in the same app. Inject `OUTBOX`, `RPC_CLIENT`, `JOB_QUEUE`, `MESSAGING_STATUS`.
 */
@Global()
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingOptions): DynamicModule {
    return {
      module: MessagingModule,
      imports: [DiscoveryModule],
      providers: [
        { provide: MESSAGING_OPTIONS, useValue: options },
        { provide: TRANSPORTS, useFactory: () => createTransports(options) },
        {
          provide: EVENT_DELIVERER,
          inject: [TRANSPORTS],
          useFactory: (t: Transports) =>
            t.requestAck ? new RequestAckDeliverer(t.rpcClient, options.deliveryTimeoutMs ?? 15_000, options.namespace) : new KafkaDeliverer(t.eventProducer!),
        },
        {
          provide: RPC_CLIENT,
          inject: [TRANSPORTS],
          useFactory: (t: Transports) => new TransportRpcClient(t.rpcClient, options.rpcTimeoutMs ?? 30_000, options.namespace),
        },
        { provide: OUTBOX, useClass: PostgresOutbox },
        { provide: JOB_QUEUE, useClass: PostgresJobQueue },
        { provide: MESSAGING_STATUS, useClass: PostgresMessagingStatus },
        MessagingActivity,
        InboxService,
        MessagingHost,
        MessagingDrain,
      ],
      exports: [OUTBOX, RPC_CLIENT, JOB_QUEUE, MESSAGING_STATUS, MESSAGING_OPTIONS, TRANSPORTS, InboxService, MessagingActivity, MessagingDrain],
    };
  }
}
