// Fails fast, with a readable message, when a service the integration tier needs is not reachable.
const net = require('node:net');

function reachable(host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 2000 }, () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
    s.on('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

module.exports = async () => {
  const pg = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  const nats = new URL((process.env.NATS_URL || 'nats://127.0.0.1:4222').split(',')[0]);
  const redis = new URL(process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379');
  const checks = [
    ['Postgres', pg.hostname, Number(pg.port || 5432)],
    ['NATS', nats.hostname, Number(nats.port || 4222)],
    ['Redis', redis.hostname, Number(redis.port || 6379)],
  ];
  const missing = [];
  for (const [name, host, port] of checks) if (!(await reachable(host, port))) missing.push(`${name} at ${host}:${port}`);
  if (missing.length) throw new Error(`Integration tests need running services: ${missing.join(', ')} (see README "Tests").`);
};
