import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiError } from './http';

/** A failed read is retried this many times, unless the server refused it (4xx: asking again changes nothing). */
const MAX_READ_RETRIES = 2;
/** Server state is fresh this long: tabs switched back and forth within it do not refetch. */
const FRESH_MS = 30_000;

const isRefusal = (err: unknown) => err instanceof ApiError && err.status >= 400 && err.status < 500;

/** The app's query cache of server state (one per page load; one per test render). */
export function createQueryClient({ retry = true }: { retry?: boolean } = {}): QueryClient {
  return new QueryClient({
    // Every failed read is logged once, here; the pages show their own words for it.
    queryCache: new QueryCache({ onError: (err, query) => console.warn(`Failed to load ${query.queryKey.join(' ')}`, err) }),
    defaultOptions: {
      queries: {
        staleTime: FRESH_MS,
        refetchOnWindowFocus: false,
        retry: retry ? (failures, err) => !isRefusal(err) && failures < MAX_READ_RETRIES : false,
      },
      mutations: { retry: false },
    },
  });
}

/** Provides the query cache; `client` for tests (fresh per render), else one for the page's life. */
export function QueryProvider({ client, children }: { client?: QueryClient; children: ReactNode }) {
  const [own] = useState(() => client ?? createQueryClient());
  return <QueryClientProvider client={own}>{children}</QueryClientProvider>;
}
