import { useEffect } from 'react';
import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet, useNavigate } from 'react-router';
import { goBackStore } from '@/lib/feedback.tsx';
import { useStore } from '@/lib/store.ts';
import { useLiveUpdates } from '../live-updates.ts';
import classes from './app-layout.module.css';
import { Footer } from './footer.tsx';
import { Sidebar } from './sidebar.tsx';
import { TopBar } from './top-bar.tsx';

/** The signed-in frame: top bar, sidebar (collapsing under 768 px), footer, and the screen. */
export function AppLayout() {
  const [navbarOpened, navbar] = useDisclosure(false);
  const navigate = useNavigate();
  const goBack = useStore(goBackStore, (value) => value);
  useLiveUpdates();

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
        <Outlet />
      </AppShell.Main>
      <AppShell.Footer>
        <Footer />
      </AppShell.Footer>
    </AppShell>
  );
}
