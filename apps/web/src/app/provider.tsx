import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { createTheme, DEFAULT_THEME, em, MantineProvider, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { SIDEBAR_COLLAPSE_WIDTH_PX } from '@betdesk/contract';
import { ProgressBar } from '@/components/progress-bar/progress-bar.tsx';
import { sessionStore } from '@/lib/auth.ts';
import { modalsHostStore, toastsHostStore } from '@/lib/feedback.tsx';
import { useStore } from '@/lib/store.ts';
import { createQueryClient } from '@/lib/query-client.ts';

/** Every × of a dialog, drawer or alert has a name for screen readers; Mantine's has none by default. */
const closeButtonName = { 'aria-label': 'Close' };

/**
 * A Mantine palette whose shade 9 (the one text and filled buttons use) is `hex`: the bright
 * colours' own 9 still reads under 4.5:1 (orange #d9480f 4.3:1, green #2b8a3e 4.0:1, red #c92a2a
 * 4.4:1 on a light badge's tint).
 */
function darkestShade(name: 'red' | 'green' | 'orange' | 'yellow' | 'lime' | 'teal', hex: string): MantineColorsTuple {
  const shades = [...DEFAULT_THEME.colors[name]];
  shades[9] = hex;
  return shades as unknown as MantineColorsTuple;
}

/**
 * 'sm' is where the sidebar collapses (spec 9: under 768 px). Dialogs keep their content inside
 * the screen: on a phone a long word or a wide row wraps instead of pushing buttons off the edge.
 * Plain objects, not `Modal.extend`, so the first load does not carry the modal's code.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  // Text in a colour (links, light badges and buttons, "c=red") and white on filled buttons use
  // shade 9: Mantine's default 6 (#228be6 blue) reads at 3.6:1 on white, and 8 at 4.5:1 on a light
  // badge's tint, under WCAG AA's 4.5:1 (decision 033).
  primaryShade: { light: 9, dark: 8 },
  colors: {
    red: darkestShade('red', '#b02525'),
    green: darkestShade('green', '#237032'),
    orange: darkestShade('orange', '#b23c0a'),
    yellow: darkestShade('yellow', '#8f5600'),
    lime: darkestShade('lime', '#4a7a0b'),
    teal: darkestShade('teal', '#06664a'),
  },
  breakpoints: { ...DEFAULT_THEME.breakpoints, sm: em(SIDEBAR_COLLAPSE_WIDTH_PX) },
  components: {
    // A link in a sentence is told from the text by more than its colour (axe: link-in-text-block).
    Anchor: { defaultProps: { underline: 'always' } },
    CloseButton: { defaultProps: closeButtonName },
    Modal: { defaultProps: { closeButtonProps: closeButtonName }, styles: { body: { overflowWrap: 'anywhere' } } },
    Drawer: { defaultProps: { closeButtonProps: closeButtonName }, styles: { content: { maxWidth: '100vw' }, body: { overflowWrap: 'anywhere' } } },
  },
});

/**
 * Secondary ("dimmed") text in gray.7's direction: Mantine's gray.6 (#868e96) reads at 3.3:1 on
 * white; #5c636a keeps it quieter than body text at 6:1. A placeholder shown as text (a file
 * picker's "Choose a file") gets #6c757d (4.7:1) instead of gray.5's 2.1:1.
 */
const cssVariablesResolver: CSSVariablesResolver = () => ({ variables: {}, light: { '--mantine-color-dimmed': '#5c636a', '--mantine-color-placeholder': '#6c757d' }, dark: {} });

const ModalsHost = lazy(() => import('./modals-host.tsx'));
const ToastsHost = lazy(() => import('./toasts-host.tsx'));

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const modalsWanted = useStore(modalsHostStore, (state) => state !== 'off');
  const toastsWanted = useStore(toastsHostStore, (wanted) => wanted);

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
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={client}>
        {toastsWanted && (
          <Suspense fallback={null}>
            <ToastsHost />
          </Suspense>
        )}
        <ProgressBar />
        {children}
        {modalsWanted && (
          <Suspense fallback={null}>
            <ModalsHost />
          </Suspense>
        )}
      </QueryClientProvider>
    </MantineProvider>
  );
}
