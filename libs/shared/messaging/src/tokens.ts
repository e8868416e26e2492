export const OUTBOX = Symbol('OUTBOX');
export const RPC_CLIENT = Symbol('RPC_CLIENT');
export const EVENT_DELIVERER = Symbol('EVENT_DELIVERER');
export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');
export const JOB_QUEUE = Symbol('JOB_QUEUE');
export const TRANSPORTS = Symbol('TRANSPORTS');
