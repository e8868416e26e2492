import { SetMetadata } from '@nestjs/common';
import type { ConsumerName, RpcName, Topic } from '@gaia/contracts';

export const EVENT_HANDLER_METADATA = 'gaia:event-handler';
export const RPC_HANDLER_METADATA = 'gaia:rpc-handler';
export const JOB_HANDLER_METADATA = 'gaia:job-handler';

export interface EventHandlerMeta {
  consumer: ConsumerName;
  topic: Topic;
}
export interface RpcHandlerMeta {
  name: RpcName;
}
/**
 * How long a claimed job stays leased before another worker may take it over: a number, or read from the
 * handler instance once it is built (so it may come from the validated config the handler injects).
 */
export type JobLease<T = never> = number | ((handler: T) => number);

export interface JobHandlerMeta {
  owner: ConsumerName;
  kind: string;
  leaseMs?: JobLease<object>;
}

/**
 * Marks `method(payload, em, envelope)` as the handler of `topic` for the consumer group `consumer`.
 * It runs inside a transaction together with the inbox record, so it applies each event once.
 * Keep it short: long work goes to a job (`@OnJob`) enqueued from here.
 */
export const OnEvent = (consumer: ConsumerName, topic: Topic): MethodDecorator =>
  SetMetadata(EVENT_HANDLER_METADATA, { consumer, topic } satisfies EventHandlerMeta);

/** Marks `method(request)` as the server of an RPC. Stream RPCs return an AsyncIterable or Observable. */
export const OnRpc = (name: RpcName): MethodDecorator => SetMetadata(RPC_HANDLER_METADATA, { name } satisfies RpcHandlerMeta);

/** Marks `method(payload, ctx)` as the worker of durable jobs of `kind` owned by a service. */
export const OnJob = <T extends object>(owner: ConsumerName, kind: string, opts: { leaseMs?: JobLease<T> } = {}): MethodDecorator =>
  SetMetadata(JOB_HANDLER_METADATA, { owner, kind, leaseMs: opts.leaseMs as JobLease<object> | undefined } satisfies JobHandlerMeta);
