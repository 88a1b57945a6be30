import type { ReactNode } from 'react';

import { cn } from '@/lib/utils';

import type { Crumb } from '../lib/json-ld';
import { Breadcrumb } from './breadcrumb';

interface PageHeroProps {
  eyebrow: string;
  title: string;
  lead: ReactNode;
  crumbs?: readonly Crumb[];
  children?: ReactNode;
}

/** The top of a content page: breadcrumb, eyebrow, the page's one H1, a lead and actions. */
export function PageHero({ eyebrow, title, lead, crumbs, children }: PageHeroProps) {
  return (
    <section className="relative overflow-hidden border-b border-zinc-200">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 h-72 bg-gradient-to-b from-indigo-50/70 to-transparent"
      />
      <div className="relative mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
        {crumbs ? <Breadcrumb crumbs={crumbs} /> : null}
        <p className="mt-6 text-sm font-semibold uppercase tracking-wider text-indigo-700">
          {eyebrow}
        </p>
        <h1 className="mt-3 max-w-3xl text-3xl font-semibold tracking-tight text-zinc-900 sm:text-5xl">
          {title}
        </h1>
        <div className="mt-5 max-w-2xl text-lg leading-8 text-zinc-600">{lead}</div>
        {children ? <div className="mt-8">{children}</div> : null}
      </div>
    </section>
  );
}

interface SectionProps {
  id?: string;
  eyebrow?: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  tinted?: boolean;
  className?: string;
}

/** A titled band of a content page (an H2 and its content). */
export function Section({ id, eyebrow, title, intro, children, tinted, className }: SectionProps) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-heading`;
  return (
    <section
      id={id}
      tabIndex={id ? -1 : undefined}
      aria-labelledby={headingId}
      className={cn(
        'scroll-mt-20 border-t border-zinc-200 focus:outline-none',
        tinted ? 'bg-zinc-50' : 'bg-white',
        className,
      )}
    >
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
        <div className="max-w-2xl">
          {eyebrow ? (
            <p className="text-sm font-semibold uppercase tracking-wider text-indigo-700">
              {eyebrow}
            </p>
          ) : null}
          <h2
            id={headingId}
            className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900 sm:text-3xl"
          >
            {title}
          </h2>
          {intro ? <div className="mt-3 text-base leading-7 text-zinc-600">{intro}</div> : null}
        </div>
        <div className="mt-10">{children}</div>
      </div>
    </section>
  );
}

/** A grid of small titled cards (H3 + text). */
export function CardGrid({
  items,
  columns = 3,
}: {
  items: readonly { title: string; text: ReactNode; icon?: ReactNode }[];
  columns?: 2 | 3;
}) {
  return (
    <ul
      className={cn(
        'grid gap-6 sm:grid-cols-2',
        columns === 3 ? 'lg:grid-cols-3' : 'lg:grid-cols-2',
      )}
    >
      {items.map((item) => (
        <li
          key={item.title}
          className="min-w-0 rounded-xl border border-zinc-200 bg-white p-6 shadow-xs"
        >
          {item.icon ? (
            <span
              aria-hidden="true"
              className="mb-4 flex size-10 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 [&_svg]:size-5"
            >
              {item.icon}
            </span>
          ) : null}
          <h3 className="text-base font-semibold text-zinc-900">{item.title}</h3>
          <div className="mt-2 text-sm leading-6 text-zinc-600">{item.text}</div>
        </li>
      ))}
    </ul>
  );
}
