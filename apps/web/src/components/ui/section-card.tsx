import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { Card } from './card';

interface SectionCardProps {
  /** The heading's id, which names the section. */
  id: string;
  title: string;
  /** Where to read more, at the heading's end. */
  link: { to: string; label: string };
  description: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A titled section of a settings page in a card (the profile's API keys and webhooks). */
export function SectionCard({
  id,
  title,
  link,
  description,
  className,
  children,
}: SectionCardProps) {
  return (
    <section aria-labelledby={id} className={className}>
      <Card>
        <div className="p-6">
          <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
            <h2 id={id} className="text-base font-semibold text-zinc-900">
              {title}
            </h2>
            <Link
              to={link.to}
              className="text-sm font-medium text-indigo-700 underline-offset-4 hover:underline"
            >
              {link.label}
            </Link>
          </div>
          <p className="mt-1 max-w-2xl text-sm text-zinc-600">{description}</p>
          {children}
        </div>
      </Card>
    </section>
  );
}
