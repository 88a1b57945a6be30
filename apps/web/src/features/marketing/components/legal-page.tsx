import type { ReactNode } from 'react';

import { SiteLayout } from '@/components/layouts/site-layout';
import { formatSiteDate, siteDate } from '@/components/seo/build-date';

import type { Crumb } from '../lib/json-ld';
import { Breadcrumb } from './breadcrumb';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/**
 * A legal document: title, last-updated date (the day the server serves it, decision 216),
 * contents, numbered sections.
 */
export function LegalPage({
  title,
  intro,
  crumbs,
  sections,
}: {
  title: string;
  intro: ReactNode;
  crumbs: readonly Crumb[];
  sections: readonly LegalSection[];
}) {
  const day = siteDate();
  return (
    <SiteLayout>
      <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
        <Breadcrumb crumbs={crumbs} />
        <h1 className="mt-6 text-3xl font-semibold tracking-tight text-zinc-900 sm:text-4xl">
          {title}
        </h1>
        <p className="mt-3 text-sm text-zinc-600">
          Last updated:{' '}
          <time data-testid="last-updated" data-site-date="" dateTime={day}>
            {formatSiteDate(day)}
          </time>
        </p>
        <div className="mt-6 text-base leading-7 text-zinc-700">{intro}</div>
        <nav
          aria-label="Contents"
          className="mt-8 rounded-xl border border-zinc-200 bg-zinc-50 p-5"
        >
          <h2 className="text-sm font-semibold text-zinc-900">Contents</h2>
          <ol className="mt-3 grid gap-1.5 text-sm sm:grid-cols-2">
            {sections.map((section, index) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="rounded-sm text-indigo-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                >
                  {index + 1}. {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        {sections.map((section, index) => (
          <section
            key={section.id}
            id={section.id}
            aria-labelledby={`${section.id}-heading`}
            className="mt-10 scroll-mt-20"
          >
            <h2 id={`${section.id}-heading`} className="text-xl font-semibold text-zinc-900">
              {index + 1}. {section.title}
            </h2>
            <div className="mt-3 grid gap-3 text-[15px] leading-7 text-zinc-700 [&_li]:ml-5 [&_li]:list-disc [&_ul]:grid [&_ul]:gap-1.5">
              {section.body}
            </div>
          </section>
        ))}
      </article>
    </SiteLayout>
  );
}
