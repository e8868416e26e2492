import { lastValueFrom, toArray } from 'rxjs';
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
});
