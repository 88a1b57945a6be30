import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';

interface CtaSectionProps {
  heading: string;
  text: string;
  action: { label: string; to: string };
  secondary?: { label: string; to: string };
}

/** The dark closing band with the page's primary call to action. */
export function CtaSection({ heading, text, action, secondary }: CtaSectionProps) {
  return (
    <section aria-label={heading} className="px-4 py-16 sm:px-6 lg:px-8">
      <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 rounded-2xl bg-zinc-900 px-6 py-10 sm:px-12 md:flex-row md:items-center md:justify-between">
        <div className="max-w-2xl">
          <h2 className="text-2xl font-semibold tracking-tight text-white">{heading}</h2>
          <p className="mt-2 text-base leading-7 text-zinc-300">{text}</p>
        </div>
        <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          <Link
            to={action.to}
            className={buttonVariants({
              variant: 'inverse',
              size: 'lg',
              className: 'focus-visible:ring-offset-zinc-900',
            })}
          >
            {action.label}
            <ArrowRight aria-hidden="true" />
          </Link>
          {secondary ? (
            <Link
              to={secondary.to}
              className="inline-flex h-12 items-center justify-center rounded-lg px-4 text-base font-medium text-white underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
            >
              {secondary.label}
            </Link>
          ) : null}
        </div>
      </div>
    </section>
  );
}
