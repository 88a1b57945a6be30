import { useLayoutEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';

import { Toaster } from '@/components/ui/toaster';

import { MAIN_CONTENT_ID } from './site-layout';

/**
 * Every route change starts at the top of the page (docs/product.md#screens-and-routes), or at
 * its anchor when the URL names one (/#pricing from another page). Only a new path moves the page:
 * in-page anchor links scroll by themselves. The first render moves nothing that the browser has
 * placed: a pre-rendered page was shown at its anchor, or where the reader has scrolled to since,
 * before hydration (on a slow phone, seconds later) and jumping back lost their place and their
 * tap (docs/decisions/241). Only a page drawn by the app alone, whose anchor did not exist when the
 * browser looked for it, is taken to its anchor then.
 */
function ScrollToTop() {
  const { pathname, hash } = useLocation();
  const hashRef = useRef(hash);
  hashRef.current = hash;
  const first = useRef(true);
  useLayoutEffect(() => {
    const id = hashRef.current.slice(1);
    const target = id ? document.getElementById(decodeURIComponent(id)) : null;
    if (first.current) {
      first.current = false;
      if (target && window.scrollY === 0) target.scrollIntoView();
      return;
    }
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        const main = document.getElementById(MAIN_CONTENT_ID);
        if (!main) return;
        event.preventDefault();
        main.focus();
        main.scrollIntoView();
      }}
      className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-3 focus:z-[60] focus:rounded-lg focus:bg-white focus:px-4 focus:py-2.5 focus:text-sm focus:font-medium focus:text-indigo-700 focus:shadow-lg focus:outline-none focus:ring-2 focus:ring-indigo-500"
    >
      Skip to main content
    </a>
  );
}

export function RootLayout() {
  return (
    <>
      <SkipLink />
      <ScrollToTop />
      <Outlet />
      <Toaster />
    </>
  );
}
