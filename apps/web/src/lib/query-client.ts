import { QueryClient } from '@tanstack/react-query';
import { isHttpError } from './http.ts';

/** The HTTP client already reports failures; queries only retry what a retry can fix. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        staleTime: 30_000,
        retry: (failureCount, error) =>
          failureCount < 1 && (!isHttpError(error) || error.status === 0 || error.status >= 500),
      },
      mutations: { retry: false },
    },
  });
}
