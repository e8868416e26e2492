import { useCallback, useEffect, useRef, useState } from 'react';

/** A message that clears itself after `ms` (team errors 3 s, profile 'saved' 3 s). */
export function useTimedMessage<T = string>(ms: number): [T | null, (value: T | null) => void] {
  const [value, setValue] = useState<T | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const set = useCallback(
    (next: T | null) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      setValue(next);
      if (next !== null) timer.current = setTimeout(() => setValue(null), ms);
    },
    [ms],
  );
  return [value, set];
}
