export * from './opensearch-index-definitions';
export * from './opensearch-retrieval.adapter';
