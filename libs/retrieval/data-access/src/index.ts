export * from './retrieval-index.port';
export * from './opensearch';
export * from './lib/agent-artifacts.codec';
export * from './lib/learn-agent';
export * from './lib/learn-in-worker';
export * from './lib/embedded-retrieval.index';
export * from './lib/retrieval-state.repository';
