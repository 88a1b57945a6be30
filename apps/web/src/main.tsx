import { startTransition, StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';

import { App } from './app';
import { resolveRoutesFor, routes } from './app/router';
import { PageMetaSinkContext } from './hooks/use-page-meta';

// Public pages arrive pre-rendered (docs/decisions/105): #root holds the page's markup and says
// which path it was rendered for. The app hydrates that markup when it is the page of this URL,
// and renders from scratch otherwise (the signed-in app's routes arrive with an empty #root).

// zod (loaded with the form pages, through contracts) probes `new Function` to compile faster
// object parsers. The CSP forbids eval, so the probe is refused and reported as a violation.
// zod's `jitless` setting skips it; zod keeps its settings on this global (what `z.config` writes),
// so setting it here, before any page chunk loads zod, keeps zod out of this entry.
(globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig = {
  jitless: true,
};

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element in index.html');

/** The path the HTML was rendered for, `*` for the 404 page, or undefined for the app shell. */
const rendered = root.dataset.prerendered;
const here = window.location.pathname.replace(/(.)\/+$/, '$1');
// A query string may change what a page shows (the sign-in page's tab), which the pre-rendered
// HTML cannot know: those URLs render afresh.
const hydrate =
  rendered !== undefined &&
  window.location.search === '' &&
  (rendered === '*' || rendered === here);

/**
 * Says that the page's handlers are in place (its first commit): boot.ts then replays the taps it
 * held (decision 142). Renders nothing, so the pre-rendered markup still matches.
 */
function Hydrated() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
    // early-input.ts's HYDRATED_EVENT (named here, not imported, so that boot.ts's module
    // stays one request).
    document.dispatchEvent(new Event('schemacheck:hydrated'));
  }, []);
  return null;
}

// Load the page's chunk first, so that the first render is the page and not an empty fallback.
await resolveRoutesFor(window.location.pathname);
const router = createBrowserRouter(routes);
const app = (
  <StrictMode>
    <PageMetaSinkContext value={null}>
      <App router={<RouterProvider router={router} />} />
      <Hydrated />
    </PageMetaSinkContext>
  </StrictMode>
);

// Hydration inside a transition is done in slices that yield to the browser between them, instead
// of one long task (a phone stays responsive while a long page hydrates).
if (hydrate) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);
