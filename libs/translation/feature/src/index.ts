export * from './lib/translation.module';
export * from './lib/translate.use-case';
export * from './lib/translation.rpc';
export * from './lib/translation-request.rules';
