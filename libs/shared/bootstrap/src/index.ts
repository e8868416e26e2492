export * from './core.module';
export * from './health.controller';
export * from './bootstrap-service';
export * from './web-static';
export * from './run-command';
export * from './json-body';
