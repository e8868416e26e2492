import { randomUUID } from 'node:crypto';
import { billingSchema } from '@gaia/billing/data-access';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { createTestApp } from '@gaia/testing';
import { BillingModule } from './billing.module';

it('measures', async () => {
  const t = await createTestApp({ schemas: [billingSchema], consumers: ['billing'], imports: [BillingModule.forRoot()], env: { DATABASE_POOL_SIZE: '10' } });
  const rpc = t.app.get<RpcClient>(RPC_CLIENT);
  for (let i = 0; i < 20; i++) await rpc.call('billing.authorize.v1', { requestId: randomUUID(), keyId: 'k', userId: 'warm' });
  let t0 = performance.now();
  for (let i = 0; i < 300; i++) await rpc.call('billing.authorize.v1', { requestId: randomUUID(), keyId: 'k1', userId: `u${i}` });
  const seq = (performance.now() - t0) / 300;
  t0 = performance.now();
  await Promise.all(Array.from({ length: 500 }, (_, i) => rpc.call('billing.authorize.v1', { requestId: randomUUID(), keyId: 'k2', userId: 'same', keyRateLimit: 100000, channel: 'web' })));
  const par = 500 / ((performance.now() - t0) / 1000);
  console.log(`sequential authorize: ${seq.toFixed(2)} ms/call; 500 parallel on one key: ${par.toFixed(0)} calls/s`);
  await t.close();
});
