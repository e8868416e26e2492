/** Test entry point (`@gaia/retrieval/data-access/testing`): the OpenSearch wire-protocol double. */
export * from './opensearch-wire.double';
