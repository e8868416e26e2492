import { Observable, TimeoutError, type MonoTypeOperatorFunction } from 'rxjs';

/**
 * Fails with rxjs' `TimeoutError` when `ms` pass before the first value or between two values — what
 * `timeout({ each: ms })` does, on one Node timer pushed back with `refresh()` at each value instead of a
 * scheduler action cancelled and rescheduled per value (a streamed translation sends a value per word; issue #13).
 */
export function idleTimeout<T>(ms: number): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const timer = setTimeout(() => {
        subscription.unsubscribe();
        subscriber.error(new TimeoutError());
      }, ms);
      const subscription = source.subscribe({
        next: (value) => {
          timer.refresh();
          subscriber.next(value);
        },
        error: (e: unknown) => {
          clearTimeout(timer);
          subscriber.error(e);
        },
        complete: () => {
          clearTimeout(timer);
          subscriber.complete();
        },
      });
      return () => {
        clearTimeout(timer);
        subscription.unsubscribe();
      };
    });
}
