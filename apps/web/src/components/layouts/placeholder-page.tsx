import { ArrowRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { usePageMeta, type PageMeta } from '@/hooks/use-page-meta';

import { SiteLayout } from './site-layout';

interface PlaceholderPageProps {
  meta: PageMeta;
  /** Small label above the heading, e.g. "Guide" or "Legal". */
  eyebrow: string;
  heading: string;
  /** One honest sentence about what the page will hold. */
  children: ReactNode;
  primary: PlaceholderLink;
  secondary?: PlaceholderLink;
}

type PlaceholderLink = { label: string; to: string } | { label: string; href: string };

function Action({ link, primary }: { link: PlaceholderLink; primary: boolean }) {
  const className = buttonVariants({ variant: primary ? 'default' : 'outline', size: 'lg' });
  const content = (
    <>
      {link.label}
      {primary ? <ArrowRight aria-hidden="true" /> : null}
    </>
  );
  return 'to' in link ? (
    <Link to={link.to} className={className}>
      {content}
    </Link>
  ) : (
    <a href={link.href} className={className}>
      {content}
    </a>
  );
}

/** A tidy stand-in for a page whose content arrives in a later release. */
export function PlaceholderPage({
  meta,
  eyebrow,
  heading,
  children,
  primary,
  secondary,
}: PlaceholderPageProps) {
  usePageMeta(meta);
  return (
    <SiteLayout>
      <section className="relative overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 top-0 h-72 bg-gradient-to-b from-indigo-50/70 to-transparent"
        />
        <div className="relative mx-auto max-w-3xl px-4 py-20 sm:px-6 sm:py-28 lg:px-8">
          <p className="text-sm font-semibold uppercase tracking-wider text-indigo-700">
            {eyebrow}
          </p>
          <h1 className="mt-3 text-3xl font-semibold tracking-tight text-zinc-900 sm:text-4xl">
            {heading}
          </h1>
          <p className="mt-5 max-w-2xl text-lg leading-8 text-zinc-600">{children}</p>
          <div className="mt-10 flex flex-col gap-3 sm:flex-row">
            <Action link={primary} primary />
            {secondary ? <Action link={secondary} primary={false} /> : null}
          </div>
        </div>
      </section>
    </SiteLayout>
  );
}
