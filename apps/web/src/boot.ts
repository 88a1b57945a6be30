// The one script a page starts with (docs/decisions/108). A pre-rendered public page is readable
// and its links work from the HTML and inline stylesheet alone; the app's code (React, the router,
// the page's chunks) only hydrates what is already on screen. So on those pages nothing of it is
// requested until the browser has painted the page: on a slow connection the document gets the
// bandwidth to itself and the first paint waits for no script. The signed-in app's shell (an empty
// #root) has nothing to paint and loads the app at once.

// The stylesheet belongs to the entry, so that Vite links it in the HTML (the build inlines it).
import './index.css';
import { holdEarlyInput } from './early-input';

const root = document.getElementById('root');
// Until the page is hydrated, a tap on a button is held and replayed, not lost (decision 142).
if (root?.dataset.prerendered !== undefined) holdEarlyInput(root);

/** Resolves once the frame after this script has been painted (at once in a hidden tab). */
function afterFirstPaint(): Promise<void> {
  // A hidden tab runs no animation frames; it would hydrate only once shown.
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

if (root?.dataset.prerendered !== undefined) await afterFirstPaint();
// The page's route chunks (written by the build), fetched alongside the app's own code rather than
// after it.
for (const href of root?.dataset.preload?.split(' ').filter(Boolean) ?? []) {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.crossOrigin = '';
  link.href = href;
  document.head.append(link);
}
await import('./main');
