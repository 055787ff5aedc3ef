import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { SmsLogPage } from './components/sms-log-page.tsx';

export const routes: RouteObject[] = [{ id: 'sms.log', path: paths.sms.log, element: <SmsLogPage /> }];
