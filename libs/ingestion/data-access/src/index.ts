export * from './lib/ingestion.entities';
export * from './lib/ingestion.schema';
export * from './lib/task.repository';
export * from './lib/file.repository';
export * from './lib/pair.repository';
export * from './lib/upload-sweep.repository';
export * from './lib/vision/openai-vision.adapter';
