import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { BroadcastsPage } from './components/broadcasts-page.tsx';
import { SmsInboxPage } from './components/sms-inbox-page.tsx';
import { SmsLogPage } from './components/sms-log-page.tsx';

export const routes: RouteObject[] = [
  { id: 'sms.log', path: paths.sms.log, element: <SmsLogPage /> },
  { id: 'sms.inbox', path: paths.sms.inbox, element: <SmsInboxPage /> },
  { id: 'sms.broadcasts', path: paths.sms.broadcasts, element: <BroadcastsPage /> },
];
