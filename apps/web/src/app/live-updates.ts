import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { paymentReceivedText, type LiveEventType } from '@betdesk/contract';
import { useSession } from '@/lib/auth.ts';
import { showToast } from '@/lib/feedback.tsx';
import { connectLiveEvents } from '@/lib/live-events.ts';
import { queryKeys } from '@/lib/query-keys.ts';

/** The cached screens each kind of event makes stale (their TanStack Query key prefixes). */
const { dashboard, mpesa, subscriptions, tips, clients, bonuses, reports, sms, bets } = queryKeys;
const staleAfter: Record<LiveEventType, (readonly string[])[]> = {
  'payment.received': [dashboard.all, mpesa.all, subscriptions.all, tips.all, clients.all, reports.all],
  'payment.claimed': [dashboard.all, mpesa.all, subscriptions.all, tips.all, clients.all, bonuses.all, reports.all],
  'sms.status': [sms.all],
  'sms.provider': [sms.all, dashboard.all],
  'bet.opened': [dashboard.all, bets.all, clients.all],
  'bet.closed': [dashboard.all, bets.all, clients.all, bonuses.all, reports.all],
};
const everyKey = [...new Map(Object.values(staleAfter).flat().map((key) => [key.join('/'), key])).values()];

/** Many events in a burst (an SMS blast) refresh each screen once. */
const BATCH_MS = 400;

function batchedInvalidation(queryClient: QueryClient) {
  const pending = new Map<string, readonly string[]>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    add(keys: (readonly string[])[]) {
      for (const key of keys) pending.set(key.join('/'), key);
      timer ??= setTimeout(() => {
        timer = null;
        for (const key of pending.values()) void queryClient.invalidateQueries({ queryKey: key });
        pending.clear();
      }, BATCH_MS);
    },
    cancel() {
      if (timer) clearTimeout(timer);
    },
  };
}

/**
 * While signed in: listens to the live stream and refreshes the screens an event changes; admins
 * get a toast for each payment received. After a reconnection everything live is refetched, since
 * what happened while disconnected is unknown.
 */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  const { token, isAdmin } = useSession();
  useEffect(() => {
    if (!token) return;
    const invalidation = batchedInvalidation(queryClient);
    const stop = connectLiveEvents({
      onReady: (again) => {
        if (again) invalidation.add(everyKey);
      },
      onEvent: (event) => {
        if (event.type === 'payment.received' && isAdmin) showToast('success', paymentReceivedText(event));
        invalidation.add(staleAfter[event.type]);
      },
    });
    return () => {
      stop();
      invalidation.cancel();
    };
  }, [token, isAdmin, queryClient]);
}
