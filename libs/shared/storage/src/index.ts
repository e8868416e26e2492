export * from './file-storage.port';
export * from './local-disk.storage';
export * from './storage.module';
