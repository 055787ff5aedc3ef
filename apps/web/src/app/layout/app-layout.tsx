import { useEffect } from 'react';
import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useNavigate } from 'react-router';
import { ScreenForRole } from '../role-gate.tsx';
import { goBackStore } from '@/lib/feedback.tsx';
import { useStore } from '@/lib/store.ts';
import { useLiveUpdates } from '../live-updates.ts';
import classes from './app-layout.module.css';
import { Footer } from './footer.tsx';
import { Sidebar } from './sidebar.tsx';
import { TopBar } from './top-bar.tsx';

/** Whether a key press is typing into something (then "/" is a character, not a shortcut). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** "/" jumps to the search box of the list on screen (keyboard). */
function useSearchShortcut() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      const box = document.querySelector<HTMLInputElement>('main [data-testid="table-search"], main input[type="search"]');
      if (!box) return;
      event.preventDefault();
      box.focus();
      box.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** The signed-in frame: top bar, sidebar (collapsing under 768 px), footer, and the screen. */
export function AppLayout() {
  const [navbarOpened, navbar] = useDisclosure(false);
  const navigate = useNavigate();
  const goBack = useStore(goBackStore, (value) => value);
  useLiveUpdates();
  useSearchShortcut();

  // A response that asks to go back (goBack, goback or back) takes the user one step back.
  useEffect(() => {
    if (!goBack) return;
    goBackStore.set(false);
    void navigate(-1);
  }, [goBack, navigate]);

  return (
    <AppShell
      header={{ height: 56 }}
      footer={{ height: 40 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !navbarOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <TopBar navbarOpened={navbarOpened} onToggleNavbar={navbar.toggle} />
      </AppShell.Header>
      <AppShell.Navbar className={classes.navbar} data-collapsed={navbarOpened ? undefined : true} data-testid="nav-sidebar">
        <Sidebar onNavigate={navbar.close} />
      </AppShell.Navbar>
      <AppShell.Main>
        <ScreenForRole />
      </AppShell.Main>
      <AppShell.Footer>
        <Footer />
      </AppShell.Footer>
    </AppShell>
  );
}
