import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router-dom';

import type { Crumb } from '../lib/json-ld';

/** The trail above a page's heading; the last crumb is the current page. */
export function Breadcrumb({ crumbs }: { crumbs: readonly Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-1.5 text-sm text-zinc-600">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <li key={crumb.path} className="flex items-center gap-1.5">
              {last ? (
                <span aria-current="page" className="font-medium text-zinc-900">
                  {crumb.label}
                </span>
              ) : (
                <>
                  <Link
                    to={crumb.path}
                    className="rounded-sm hover:text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                  >
                    {crumb.label}
                  </Link>
                  <ChevronRight aria-hidden="true" className="size-3.5 text-zinc-400" />
                </>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
