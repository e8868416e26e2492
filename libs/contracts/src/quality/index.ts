export * from './quality.contracts';
