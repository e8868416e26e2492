export * from './request-context';
export * from './logger';
export * from './http-logging.middleware';
export * from './metrics';
