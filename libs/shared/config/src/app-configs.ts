import { loadConfig } from './load-config';

/** Variable groups each app reads. One validated config per app; apps call `load<App>Config()` at start. */
export const APP_VARIABLE_GROUPS = {
  platform: ['core', 'database', 'messaging', 'redis', 'storage', 'retrieval', 'llm', 'ingestion', 'translation', 'metering', 'auth', 'web', 'edge'],
  gateway: ['core', 'database', 'messaging', 'redis', 'storage', 'auth', 'web', 'edge'],
  agents: ['core', 'database', 'messaging', 'storage', 'retrieval'],
  ingestion: ['core', 'database', 'messaging', 'storage', 'llm', 'ingestion'],
  retrieval: ['core', 'database', 'messaging', 'storage', 'retrieval'],
  translation: ['core', 'database', 'messaging', 'storage', 'retrieval', 'llm', 'translation'],
  billing: ['core', 'database', 'messaging', 'redis', 'metering'],
} as const;

export type AppName = keyof typeof APP_VARIABLE_GROUPS;

export const loadPlatformConfig = (env = process.env) => loadConfig('platform', APP_VARIABLE_GROUPS.platform, env);
export type PlatformConfig = ReturnType<typeof loadPlatformConfig>;
/** Every app's config is a subset of the platform's: libs depend on this wide type and read what they need. */
export type AppConfig = Partial<PlatformConfig> & Pick<PlatformConfig, 'NODE_ENV' | 'LOG_LEVEL' | 'PORT' | 'HOST' | 'DATA_DIR' | 'SHUTDOWN_GRACE_MS'>;

export function loadAppConfig(app: AppName, env = process.env): AppConfig {
  return loadConfig(app, APP_VARIABLE_GROUPS[app] as readonly (keyof typeof import('./catalog').VARIABLE_GROUPS)[], env) as unknown as AppConfig;
}

/** Injection token of the app's validated config. */
export const APP_CONFIG = Symbol('APP_CONFIG');
