export * from './schema-bundle';
export * from './embedded-postgres';
export * from './data-source.factory';
export * from './unit-of-work';
export * from './database.module';
export * from './pg-channel-listener';
