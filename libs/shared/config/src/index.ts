export * from './catalog';
export * from './load-config';
export * from './app-configs';
