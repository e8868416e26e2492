import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { catchError, from, isObservable, throwError, type Observable } from 'rxjs';
import type { DataSource, EntityManager } from 'typeorm';
import { rpcDefinition, type EventEnvelope } from '@gaia/contracts';
import { DATA_SOURCE } from '@gaia/shared/database';
import { DomainError } from '@gaia/shared/kernel';
import { MessagingActivity } from './activity';
import {
  EVENT_HANDLER_METADATA,
  JOB_HANDLER_METADATA,
  RPC_HANDLER_METADATA,
  type EventHandlerMeta,
  type JobHandlerMeta,
  type RpcHandlerMeta,
} from './decorators';
import { InboxService } from './inbox.service';
import { JOB_CHANNEL, JobRunner, type JobContext } from './job-queue';
import type { MessagingOptions } from './messaging-options';
import { OutboxRelay, PostgresOutboxStore } from './outbox-relay';
import { eventPattern, OUTBOX_CHANNEL, rpcPattern } from './patterns';
import { PgNotifier } from './pg-notifier';
import { InstanceLiveness } from './instance-liveness';
import { toRpcError } from './rpc-errors';
import { EVENT_DELIVERER, MESSAGING_OPTIONS, TRANSPORTS } from './tokens';
import type { EventDeliverer } from './event-deliverer';
import type { Transports } from './transport.factory';

type AnyFn = (...args: unknown[]) => unknown;

/**
 * Wires this process into the platform: finds the @OnEvent/@OnRpc/@OnJob handlers of the consumer groups
 * it hosts, registers them on the @nestjs/microservices transport servers, starts the outbox relay and
 * the job runner, and stops them all in order on shutdown.
 */
@Injectable()
export class MessagingHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Messaging');
  readonly relay: OutboxRelay;
  readonly jobs: JobRunner;
  private notifier?: PgNotifier;
  /** This process's liveness lock: what it leases is taken over at once if it dies. */
  readonly liveness: InstanceLiveness;
  private readonly registered: string[] = [];

  constructor(
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
    @Inject(TRANSPORTS) private readonly transports: Transports,
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly inbox: InboxService,
    private readonly activity: MessagingActivity,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Inject(EVENT_DELIVERER) deliverer: EventDeliverer,
  ) {
    this.liveness = new InstanceLiveness((ds.options as { url?: string }).url);
    this.relay = new OutboxRelay(new PostgresOutboxStore(ds, this.liveness), deliverer, activity, { pollMs: options.outboxPollMs ?? 1000 });
    this.jobs = new JobRunner(ds, activity, { pollMs: options.outboxPollMs ?? 1000, concurrency: 2 }, this.liveness);
  }

  async onApplicationBootstrap(): Promise<void> {
    const hosted = new Set<string>(this.options.consumers);
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const instance = wrapper.instance as Record<string, AnyFn> | undefined;
      if (!instance || typeof instance !== 'object' || wrapper.isNotMetatype) continue;
      const proto = Object.getPrototypeOf(instance);
      for (const method of this.scanner.getAllMethodNames(proto)) {
        const fn = instance[method];
        const ev = this.reflector.get<EventHandlerMeta>(EVENT_HANDLER_METADATA, fn);
        if (ev && hosted.has(ev.consumer)) this.registerEvent(ev, fn.bind(instance));
        const rpc = this.reflector.get<RpcHandlerMeta>(RPC_HANDLER_METADATA, fn);
        if (rpc && hosted.has(rpcDefinition(rpc.name).service)) this.registerRpc(rpc, fn.bind(instance));
        const job = this.reflector.get<JobHandlerMeta>(JOB_HANDLER_METADATA, fn);
        if (job && hosted.has(job.owner)) {
          const leaseMs = typeof job.leaseMs === 'function' ? job.leaseMs(instance) : job.leaseMs;
          this.jobs.register(job.kind, (p: unknown, ctx: JobContext) => Promise.resolve(fn.call(instance, p, ctx)) as Promise<void>, leaseMs);
        }
      }
    }
    await new Promise<void>((resolve, reject) => {
      try {
        this.transports.rpcServer.listen(() => resolve());
      } catch (e) {
        reject(e);
      }
    });
    for (const s of this.transports.eventServers.values()) await new Promise<void>((r) => s.listen(() => r()));
    if (this.transports.rpcClient.connect) await this.transports.rpcClient.connect();
    if (this.transports.eventProducer) await this.transports.eventProducer.connect();
    this.notifier = new PgNotifier((this.ds.options as { url?: string }).url, {
      [OUTBOX_CHANNEL]: () => this.relay.kick(),
      [JOB_CHANNEL]: () => this.jobs.kick(),
    });
    await Promise.all([this.notifier.start(), this.liveness.start()]);
    if (this.options.relay !== false) this.relay.start();
    this.jobs.start();
    this.logger.log(
      `${this.options.processName}: ${this.options.transport} transport, consumers [${[...hosted].join(', ')}], ${this.registered.length} handlers, jobs [${this.jobs.kinds.join(', ')}]`,
    );
  }

  private registerEvent(meta: EventHandlerMeta, fn: AnyFn): void {
    const requestAck = this.transports.requestAck;
    const handler = async (raw: unknown) => {
      try {
        return await this.inbox.consume(meta.consumer, raw, (payload: unknown, em: EntityManager, env: EventEnvelope) => fn(payload, em, env) as Promise<void>);
      } catch (e) {
        // Request/ack transports: answer the failure at once (the relay retries with backoff) instead of
        // letting the caller wait for its timeout. Kafka: throw, so the consumer retries / dead-letters.
        if (requestAck) return throwError(() => toRpcError(e));
        throw toRpcError(e);
      }
    };
    if (this.transports.requestAck) {
      const pattern = eventPattern(meta.consumer, meta.topic, this.options.namespace);
      this.transports.rpcServer.addHandler(pattern, handler, false);
      this.registered.push(pattern);
    } else {
      const server = this.transports.eventServers.get(meta.consumer);
      if (!server) throw new Error(`no Kafka consumer server for ${meta.consumer}`);
      server.addHandler(meta.topic, handler, true);
      this.registered.push(`${meta.consumer}:${meta.topic}`);
    }
  }

  private registerRpc(meta: RpcHandlerMeta, fn: AnyFn): void {
    const def = rpcDefinition(meta.name);
    const pattern = rpcPattern(meta.name, this.options.namespace);
    this.transports.rpcServer.addHandler(
      pattern,
      async (raw: unknown) => {
        const parsed = def.request.safeParse(raw);
        // Errors are answered as an erroring Observable, not thrown: @nestjs/microservices' NATS server
        // sends no reply for a rejected handler (the caller would time out with 503 instead of the DomainError).
        if (!parsed.success)
          return throwError(() => toRpcError(DomainError.invalid(parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; '))));
        try {
          const result = await this.activity.track(async () => fn(parsed.data));
          if (def.stream) {
            const obs: Observable<unknown> = isObservable(result) ? result : from(result as AsyncIterable<unknown>);
            return obs.pipe(catchError((e) => throwError(() => toRpcError(e))));
          }
          return result;
        } catch (e) {
          return throwError(() => toRpcError(e));
        }
      },
      false,
    );
    this.registered.push(pattern);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.notifier?.stop();
    await this.relay.stop();
    await this.jobs.stop();
    await this.liveness.stop();
    await this.activity.idle();
    await Promise.resolve(this.transports.rpcServer.close());
    for (const s of this.transports.eventServers.values()) await Promise.resolve(s.close());
    await Promise.resolve(this.transports.rpcClient.close());
    if (this.transports.eventProducer) await Promise.resolve(this.transports.eventProducer.close());
  }
}
