import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';
import { screen } from '@/lib/screen.tsx';

export const routes: RouteObject[] = [
  { id: 'tips.results', handle: { title: 'Enter results' }, path: paths.tips.results, lazy: screen(() => import('./components/enter-results-page.tsx'), (m) => <m.EnterResultsPage />) },
  { id: 'tips.record', handle: { title: 'Track Record' }, path: paths.tips.record, lazy: screen(() => import('./components/track-record-page.tsx'), (m) => <m.TrackRecordPage />) },
];
