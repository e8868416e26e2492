export * from './test-database';
export * from './test-app';
export * from './wait-for';
export * from './openai-double';
export * from './synthetic-corpus';
export * from './tcp-proxy';
