export * from './lib/retrieval.module';
export * from './lib/build-agent.use-case';
export * from './lib/retrieval.tokens';
export { withCorrections } from './lib/learning-feedback';
