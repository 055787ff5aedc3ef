import { useEffect, useState, type ReactNode } from 'react';
import { createTheme, DEFAULT_THEME, em, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { SIDEBAR_COLLAPSE_WIDTH_PX, TOAST_DURATION_MS } from '@betdesk/contract';
import { ProgressBar } from '@/components/progress-bar/progress-bar.tsx';
import { sessionStore } from '@/lib/auth.ts';
import { createQueryClient } from '@/lib/query-client.ts';

/** 'sm' is where the sidebar collapses (spec 9: under 768 px). */
export const theme = createTheme({
  primaryColor: 'blue',
  breakpoints: { ...DEFAULT_THEME.breakpoints, sm: em(SIDEBAR_COLLAPSE_WIDTH_PX) },
});

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());

  // Cached answers belong to the session that fetched them: a new or ended session starts empty.
  useEffect(() => {
    let previous = sessionStore.get();
    return sessionStore.subscribe(() => {
      const next = sessionStore.get();
      if (next.token !== previous.token || (previous.user && !next.user)) client.clear();
      previous = next;
    });
  }, [client]);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <QueryClientProvider client={client}>
        <ModalsProvider>
          <Notifications autoClose={TOAST_DURATION_MS} position="top-right" />
          <ProgressBar />
          {children}
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
