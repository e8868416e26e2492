import { randomUUID } from 'node:crypto';
import { ClientNats } from '@nestjs/microservices';
import { TransportRpcClient } from './rpc-client';
import type { MessagingClient } from './transport.factory';

/** Time given to a call: far beyond the answer NATS gives at once when nobody serves the subject. */
const CALL_TIMEOUT_MS = 60_000;

/**
 * A call nobody serves on the real NATS (:4222): the server answers the request with its no-responders
 * status at once, which must reach the caller as 503 service_unavailable (not a 500, not a timeout).
 */
describe('RPC errors on the real NATS', () => {
  let nats: ClientNats;

  beforeAll(async () => {
    nats = new ClientNats({ servers: [process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222'], name: 'rpc-errors-spec' });
    await nats.connect();
  });
  afterAll(() => nats?.close());

  it('answers a call without responders with 503 service_unavailable', async () => {
    // A namespace of its own: no process of another test serves these subjects.
    const rpc = new TransportRpcClient(nats as unknown as MessagingClient, CALL_TIMEOUT_MS, `no-responders-${randomUUID()}`);
    await expect(rpc.call('billing.get-plan.v1', { userId: 'nobody' })).rejects.toMatchObject({
      status: 503,
      code: 'service_unavailable',
      message: 'The billing service is unavailable right now. Please try again.',
    });
  });
});
