import type { ReactNode } from 'react';

import { SiteLayout } from '@/components/layouts/site-layout';
import { Card } from '@/components/ui/card';

/** A single centred card: forgot-password and reset-password screens. */
export function AuthCardLayout({ children }: { children: ReactNode }) {
  return (
    <SiteLayout footer="simple" showAuth={false} className="bg-zinc-50">
      <div className="mx-auto flex w-full max-w-md flex-col px-4 py-12 sm:py-20">
        <Card className="p-6 sm:p-8">{children}</Card>
      </div>
    </SiteLayout>
  );
}

export function AuthCardHeading({
  icon,
  title,
  children,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-col gap-2">
      {icon ? (
        <span
          aria-hidden="true"
          className="mb-2 flex size-11 items-center justify-center rounded-full bg-indigo-50 text-indigo-700 [&_svg]:size-5"
        >
          {icon}
        </span>
      ) : null}
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
      {children ? <p className="text-sm leading-6 text-zinc-600">{children}</p> : null}
    </div>
  );
}
