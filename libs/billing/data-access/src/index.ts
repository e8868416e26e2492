export * from './lib/billing.schema';
export * from './lib/billing.repositories';
