import { lastValueFrom, Observable, of, toArray } from 'rxjs';
import { InProcessBus, InProcessClient, InProcessServer } from './in-process.transport';

describe('in-process transport', () => {
  const bus = new InProcessBus();
  const server = new InProcessServer(bus);
  const client = new InProcessClient(bus);
  server.addHandler('echo', async (d: { m: string }) => ({ m: d.m.toUpperCase() }));
  server.addHandler('count', async (d: { n: number }) =>
    (async function* () {
      for (let i = 1; i <= d.n; i++) yield i;
    })(),
  );
  server.addHandler('observable', async (d: { n: number }) => of(d.n, d.n + 1));
  server.addHandler(
    'erroring',
    async () =>
      new Observable(() => {
        throw { code: 'y', message: 'inner', status: 409 };
      }),
  );
  let slowCalls = 0;
  let answerSlow: (v: string) => void = () => undefined;
  server.addHandler('slow', async () => {
    slowCalls++;
    return new Promise<string>((r) => (answerSlow = r));
  });
  server.addHandler('fail', async () => {
    throw { code: 'x', message: 'nope', status: 418 };
  });
  beforeAll(() => new Promise<void>((r) => server.listen(r)));

  it('answers requests', async () => {
    expect(await lastValueFrom(client.send('echo', { m: 'kuña' }))).toEqual({ m: 'KUÑA' });
  });
  it('streams every value of an async iterable, in order', async () => {
    expect(await lastValueFrom(client.send('count', { n: 5 }).pipe(toArray()))).toEqual([1, 2, 3, 4, 5]);
  });
  it('propagates handler errors and unknown patterns', async () => {
    await expect(lastValueFrom(client.send('fail', {}))).rejects.toMatchObject({ status: 418 });
    await expect(lastValueFrom(client.send('missing', {}))).rejects.toMatchObject({ status: 503 });
  });
  it('relays an Observable answer and its error', async () => {
    expect(await lastValueFrom(client.send('observable', { n: 3 }).pipe(toArray()))).toEqual([3, 4]);
    await expect(lastValueFrom(client.send('erroring', {}))).rejects.toMatchObject({ status: 409 });
  });
  it('a caller that unsubscribed hears nothing of the answer', async () => {
    const heard: unknown[] = [];
    const sub = client.send('slow', {}).subscribe({ next: (v) => heard.push(v), error: (e) => heard.push(e), complete: () => heard.push('complete') });
    await new Promise<void>((r) => setImmediate(r));
    expect(slowCalls).toBe(1);
    sub.unsubscribe();
    answerSlow('late');
    expect(await lastValueFrom(client.send('echo', { m: 'after' }))).toEqual({ m: 'AFTER' });
    expect(heard).toEqual([]);
  });
  it('refuses an empty message', async () => {
    await expect(lastValueFrom(client.send('echo', undefined))).rejects.toThrow();
  });
});
