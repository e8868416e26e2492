export * from './kafka-settings';
export * from './kafka-topics';
export * from './kafka-message';
export * from './kafka-options.factory';
export * from './kafka-dead-letter';
export * from './gaia-kafka.server';
