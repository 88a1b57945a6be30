import type { ReactNode } from 'react';

import { AppProvider } from './provider';

/**
 * The app around its router: the browser passes a RouterProvider (main.tsx), the pre-render a
 * StaticRouterProvider (entry-server.tsx), so that both render the same tree and hydration matches.
 */
export function App({ router }: { router: ReactNode }) {
  return <AppProvider>{router}</AppProvider>;
}
