import { createStore, useStore } from './store.ts';

/**
 * The global loading bar. A request starts it; handling its response switches it off (spec 4);
 * a load or save failure leaves it in the failed state until the next request starts (spec 8).
 */
export type ProgressState = { status: 'idle' | 'loading' | 'failed'; pending: number };

export const progressStore = createStore<ProgressState>({ status: 'idle', pending: 0 });

export const progress = {
  start() {
    progressStore.set((s) => ({ status: 'loading', pending: s.pending + 1 }));
  },
  done() {
    progressStore.set((s) => {
      const pending = Math.max(0, s.pending - 1);
      if (s.status === 'failed') return { status: 'failed', pending };
      return { status: pending > 0 ? 'loading' : 'idle', pending };
    });
  },
  fail() {
    progressStore.set((s) => ({ status: 'failed', pending: Math.max(0, s.pending - 1) }));
  },
  reset() {
    progressStore.set({ status: 'idle', pending: 0 });
  },
};

export function useProgress(): ProgressState['status'] {
  return useStore(progressStore, (s) => s.status);
}
