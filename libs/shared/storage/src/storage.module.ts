import { DynamicModule, Global, Module } from '@nestjs/common';
import { FILE_STORAGE } from './file-storage.port';
import { LocalDiskStorage } from './local-disk.storage';

@Global()
@Module({})
export class StorageModule {
  static forRoot(opts: { dir: string }): DynamicModule {
    return {
      module: StorageModule,
      providers: [{ provide: FILE_STORAGE, useValue: new LocalDiskStorage(opts.dir) }],
      exports: [FILE_STORAGE],
    };
  }
}
