export * from './services';
export * from './events';
export * from './rpc';
export * from './http';
export * from './quality';
