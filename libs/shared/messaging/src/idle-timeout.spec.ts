import { lastValueFrom, NEVER, Observable, Subject, TimeoutError, toArray } from 'rxjs';
import { idleTimeout } from './idle-timeout';

describe('idleTimeout', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('passes every value, the error and the completion through', async () => {
    const source = new Subject<number>();
    const all = lastValueFrom(source.pipe(idleTimeout(1000), toArray()));
    source.next(1);
    source.next(2);
    source.complete();
    await expect(all).resolves.toEqual([1, 2]);
    const failing = new Subject<number>();
    const failed = lastValueFrom(failing.pipe(idleTimeout(1000)));
    failing.error(new Error('boom'));
    await expect(failed).rejects.toThrow('boom');
  });

  it('fails with TimeoutError when nothing comes in time, and unsubscribes from the source', async () => {
    let unsubscribed = false;
    const silent = new Observable<number>(() => () => (unsubscribed = true));
    const result = lastValueFrom(silent.pipe(idleTimeout(1000)));
    jest.advanceTimersByTime(1000);
    await expect(result).rejects.toBeInstanceOf(TimeoutError);
    expect(unsubscribed).toBe(true);
  });

  it('counts the time between two values, not from the start', async () => {
    const source = new Subject<number>();
    const seen: number[] = [];
    let failure: unknown;
    source.pipe(idleTimeout(1000)).subscribe({ next: (v) => seen.push(v), error: (e) => (failure = e) });
    for (let i = 0; i < 5; i++) {
      jest.advanceTimersByTime(900);
      source.next(i);
    }
    expect(failure).toBeUndefined();
    jest.advanceTimersByTime(1000);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(failure).toBeInstanceOf(TimeoutError);
  });

  it('stops its timer when the caller unsubscribes', () => {
    const sub = NEVER.pipe(idleTimeout(1000)).subscribe({ error: () => undefined });
    expect(jest.getTimerCount()).toBe(1);
    sub.unsubscribe();
    expect(jest.getTimerCount()).toBe(0);
  });
});
