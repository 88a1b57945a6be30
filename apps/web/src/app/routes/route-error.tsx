import { RotateCw } from 'lucide-react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';

import { LogoMark } from '@/components/layouts/logo';
import { Button, buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';

/** Shown when a page fails to load or render, e.g. a chunk that vanished after a deployment. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;
  return (
    <main className="flex min-h-dvh items-center justify-center bg-zinc-50 px-4">
      <div role="alert" className="flex max-w-md flex-col items-center text-center">
        <LogoMark />
        <h1 className="mt-6 text-2xl font-semibold tracking-tight text-zinc-900">
          Something went wrong
        </h1>
        <p className="mt-3 text-sm leading-6 text-zinc-600">
          This page could not be displayed. Reloading usually fixes it; if it keeps happening,
          please contact support.
        </p>
        {detail ? <p className="mt-2 font-mono text-xs text-zinc-600">{detail}</p> : null}
        <div className="mt-8 flex gap-3">
          <Button onClick={() => window.location.reload()}>
            <RotateCw aria-hidden="true" />
            Reload page
          </Button>
          <Link to={paths.home} className={buttonVariants({ variant: 'outline' })}>
            Return Home
          </Link>
        </div>
      </div>
    </main>
  );
}
