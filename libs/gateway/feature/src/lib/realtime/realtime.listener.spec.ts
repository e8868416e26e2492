import { EVENTS, type Topic } from '@gaia/contracts';
import { EVENT_HANDLER_METADATA, type EventHandlerMeta } from '@gaia/shared/messaging';
import { RealtimeListener } from './realtime.listener';

describe('RealtimeListener', () => {
  it('handles every event the gateway consumer group subscribes to (an unhandled one would never be delivered)', () => {
    const subscribed = (Object.keys(EVENTS) as Topic[]).filter((t) => (EVENTS[t].subscribers as readonly string[]).includes('gateway'));
    const proto = RealtimeListener.prototype as unknown as Record<string, unknown>;
    const handled = Object.getOwnPropertyNames(proto)
      .map((m) => Reflect.getMetadata(EVENT_HANDLER_METADATA, proto[m] as object) as EventHandlerMeta | undefined)
      .filter((m): m is EventHandlerMeta => !!m && m.consumer === 'gateway')
      .map((m) => m.topic);
    expect(subscribed.length).toBeGreaterThan(0);
    expect([...handled].sort()).toEqual([...subscribed].sort());
  });
});
