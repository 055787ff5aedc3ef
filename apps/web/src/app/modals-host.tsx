import { useEffect } from 'react';
import { ModalsProvider } from '@mantine/modals';
import { modalsHostReady } from '@/lib/feedback.tsx';

/** Mantine's modal host, loaded on the first popup or confirmation (see withModals). */
export default function ModalsHost() {
  useEffect(() => modalsHostReady(), []);
  return <ModalsProvider>{null}</ModalsProvider>;
}
