export * from './openai-double';
