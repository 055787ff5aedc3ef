import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'sms.log', handle: { title: 'SMS log', access: 'view:sms-log' }, path: paths.sms.log, lazy: screen(() => import('./components/sms-log-page.tsx'), (m) => <m.SmsLogPage />) },
  { id: 'sms.inbox', handle: { title: 'SMS inbox', access: 'view:sms-inbox' }, path: paths.sms.inbox, lazy: screen(() => import('./components/sms-inbox-page.tsx'), (m) => <m.SmsInboxPage />) },
  { id: 'sms.costs', handle: { title: 'SMS costs', access: 'view:sms-log' }, path: paths.sms.costs, lazy: screen(() => import('./components/sms-costs-page.tsx'), (m) => <m.SmsCostsPage />) },
  { id: 'sms.broadcasts', handle: { title: 'Broadcasts', access: 'send:broadcasts' }, path: paths.sms.broadcasts, lazy: screen(() => import('./components/broadcasts-page.tsx'), (m) => <m.BroadcastsPage />) },
];
