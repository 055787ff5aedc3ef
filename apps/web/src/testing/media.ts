import { vi } from 'vitest';

/** A MediaQueryList that answers `matches` (jsdom has no media queries). */
export function mediaQueryList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  } as MediaQueryList;
}

/** The screen as a phone (every max-width query matches) or as a desk screen, until vi.restoreAllMocks(). */
export function onAPhone(phone = true): void {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => mediaQueryList(query, phone && query.includes('max-width')));
}
