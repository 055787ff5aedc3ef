import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';

/**
 * A screen loaded with its route (its own chunk): the first load carries only the frame and the
 * screen asked for, and a screen's heavy parts (the rich-text editor) come with the screens that use them.
 */
export function screen<M>(load: () => Promise<M>, render: (module: M) => ReactNode): RouteObject['lazy'] {
  return async () => ({ element: render(await load()) });
}
