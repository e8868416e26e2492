/** Wire patterns. Events for request/ack transports go to one consumer group; RPCs to the serving service. */
/** `namespace` separates installations (or test runs) sharing one NATS server; default `gaia`. */
export const eventPattern = (subscriber: string, topic: string, namespace = 'gaia'): string => `${namespace}.evt.${subscriber}.${topic}`;
export const rpcPattern = (name: string, namespace = 'gaia'): string => `${namespace}.rpc.${name}`;
export const OUTBOX_CHANNEL = 'gaia_outbox';
