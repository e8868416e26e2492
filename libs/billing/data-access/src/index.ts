export * from './lib/billing.schema';
export * from './lib/billing.repositories';
export * from './lib/plan-history.repository';
export * from './lib/account-erasure.repository';
export * from './lib/counter-purge.repository';
