import { RouterProvider } from 'react-router';
import { setNavigator } from '@/lib/navigation.ts';
import { AppProvider } from './provider.tsx';
import { createAppRouter, type AppRouter } from './router.tsx';

/** Creates the router and lets auth and the HTTP client navigate through it. */
export function startRouter(): AppRouter {
  const router = createAppRouter();
  setNavigator((to) => {
    if (typeof to === 'number') void router.navigate(to);
    else void router.navigate(to, { replace: router.state.location.pathname === to });
  });
  return router;
}

export function App({ router }: { router: AppRouter }) {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
