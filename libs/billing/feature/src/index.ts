export * from './lib/billing.module';
export * from './lib/billing.rules';
export * from './lib/billing.tokens';
export * from './lib/authorize.use-case';
export * from './lib/metering.rules';
export * from './lib/record-usage.use-case';
export * from './lib/usage-queries.use-case';
export * from './lib/plans.use-case';
