import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startRouter } from '@/app/index.tsx';
import { paths } from '@/config/paths.ts';
import { refresh } from '@/lib/auth.ts';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

const router = startRouter();

// The session is refreshed on app start (spec 4); on the login page a live session goes on to the dashboard.
void refresh(window.location.pathname === paths.login);

createRoot(root).render(
  <StrictMode>
    <App router={router} />
  </StrictMode>,
);
