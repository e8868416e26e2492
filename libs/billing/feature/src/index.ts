export * from './lib/billing.module';
export * from './lib/billing.rules';
export * from './lib/billing.tokens';
export * from './lib/authorize/authorize.use-case';
export * from './lib/metering.rules';
export * from './lib/record-usage/record-usage.use-case';
export * from './lib/usage-queries/usage-queries.use-case';
export * from './lib/plans/plans.use-case';
