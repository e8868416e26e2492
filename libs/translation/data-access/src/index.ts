export * from './lib/agent-cache';
export * from './lib/agent-directory.port';
export * from './lib/agent-artifacts.port';
export * from './lib/agent-loader';
export * from './lib/engine-knowledge';
export * from './lib/builtin-translation.engine';
export * from './lib/usage-recorder';
export * from './lib/file-storage-agent-artifacts.adapter';
// The artifact container is produced by the retrieval service; translation reads it.
export { encodeAgentArtifacts, decodeAgentArtifacts } from '@gaia/retrieval/data-access';
export * from './lib/rpc-agent-directory.adapter';
export * from './lib/retrieval-examples.port';
export * from './lib/rpc-retrieval-examples.adapter';
export * from './lib/agent-feedback.port';
export * from './lib/cached-agent-feedback.adapter';
