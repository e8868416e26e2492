/**
 * Kafka connection settings from the documented environment (docs/configuration.md):
 * KAFKA_BROKERS (comma list), KAFKA_CLIENT_ID, KAFKA_SSL, KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME,
 * KAFKA_SASL_PASSWORD.
 */
export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

export interface KafkaSettings {
  brokers: string[];
  clientId: string;
  ssl: boolean;
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
}

const MECHANISMS: readonly KafkaSaslMechanism[] = ['plain', 'scram-sha-256', 'scram-sha-512'];

function flag(value: string | undefined): boolean {
  return ['1', 'true', 'yes', 'on'].includes((value ?? '').trim().toLowerCase());
}

export function kafkaSettingsFromEnv(env: Record<string, string | undefined>): KafkaSettings {
  const brokers = (env['KAFKA_BROKERS'] ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (brokers.length === 0) throw new Error('KAFKA_BROKERS must list at least one broker (host:port, comma separated)');
  for (const broker of brokers) {
    if (!/^[^\s:]+:\d{1,5}$/.test(broker)) throw new Error(`KAFKA_BROKERS: "${broker}" is not host:port`);
  }
  const settings: KafkaSettings = {
    brokers,
    clientId: env['KAFKA_CLIENT_ID']?.trim() || 'gaia',
    ssl: flag(env['KAFKA_SSL']),
  };
  const mechanism = env['KAFKA_SASL_MECHANISM']?.trim().toLowerCase();
  if (mechanism) {
    if (!MECHANISMS.includes(mechanism as KafkaSaslMechanism)) {
      throw new Error(`KAFKA_SASL_MECHANISM must be one of ${MECHANISMS.join(', ')} (got "${mechanism}")`);
    }
    const username = env['KAFKA_SASL_USERNAME'];
    const password = env['KAFKA_SASL_PASSWORD'];
    if (!username || !password) throw new Error('KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD are required with KAFKA_SASL_MECHANISM');
    settings.sasl = { mechanism: mechanism as KafkaSaslMechanism, username, password };
  }
  return settings;
}
