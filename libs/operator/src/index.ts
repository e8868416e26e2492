export * from './lib/operator.module';
export * from './lib/operator-cli';
