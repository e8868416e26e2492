export * from './retrieval-index.port';
export * from './opensearch';
