export * from './lib/translation.module';
export * from './lib/translate/translate.use-case';
export * from './lib/translation.rpc';
export * from './lib/translate/translation-request.rules';
