import { useEffect } from 'react';
import { Outlet, useMatches } from 'react-router';
import { APP_NAME } from '@/config/app.ts';

interface TitleHandle {
  title?: string;
}

/** The tab's title for the deepest route that names its screen, e.g. "Open bets · Betdesk". */
export function titleOf(matches: readonly { handle?: unknown }[]): string {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const title = (matches[i]?.handle as TitleHandle | undefined)?.title;
    if (title) return `${title} · ${APP_NAME}`;
  }
  return APP_NAME;
}

/** Root of the route tree: keeps document.title in step with the screen shown. */
export function ScreenTitle() {
  const matches = useMatches();
  const title = titleOf(matches);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return <Outlet />;
}
