export * from './lib/gateway.module';
export * from './lib/gateway.options';
export * from './lib/openapi/openapi';
export * from './lib/http/domain-error.filter';
export * from './lib/auth/cookies';
export * from './lib/translate/translate.service';
export { identitySchema } from '@gaia/identity/feature';
export * from './lib/translate/translation-meter';
