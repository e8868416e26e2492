export * from './clock';
export * from './domain-error';
export * from './ids';
export * from './translation-input';
