export * from './types';
export * from './http';
export * from './translate-stream';
export * from './public-api';
export * as accountApi from './account-api';
