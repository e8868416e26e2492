/** Wire patterns. Events for request/ack transports go to one consumer group; RPCs to the serving service. */
export const eventPattern = (subscriber: string, topic: string): string => `gaia.evt.${subscriber}.${topic}`;
export const rpcPattern = (name: string): string => `gaia.rpc.${name}`;
export const OUTBOX_CHANNEL = 'gaia_outbox';
