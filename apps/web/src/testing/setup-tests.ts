import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';
import { mediaQueryList } from './media.ts';

// findBy/waitFor poll until this long: enough for a render on a busy two-core CI machine.
configure({ asyncUtilTimeout: 15_000 });

// jsdom lacks the layout APIs Mantine and the virtualizer ask for.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', { writable: true, value: (query: string) => mediaQueryList(query, false) });
}

class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;
Element.prototype.scrollTo ??= () => {};
