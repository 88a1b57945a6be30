import type { ReactNode } from 'react';

import { cn } from '@/lib/utils';

import { Footer } from './footer';
import { Header } from './header';
import type { NavItem } from './nav-items';

export const MAIN_CONTENT_ID = 'main-content';

interface SiteLayoutProps {
  children: ReactNode;
  footer?: 'detailed' | 'simple' | 'none';
  showAuth?: boolean;
  navItems?: NavItem[];
  /** Classes for <main>, e.g. a tinted background for app pages. */
  className?: string;
}

/** Header, the page's <main> (target of the skip link) and a footer. */
export function SiteLayout({
  children,
  footer = 'detailed',
  showAuth,
  navItems,
  className,
}: SiteLayoutProps) {
  return (
    <div className="flex min-h-dvh flex-col">
      <Header showAuth={showAuth} navItems={navItems} />
      <main
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        className={cn('flex-1 focus:outline-none', className)}
      >
        {children}
      </main>
      {footer === 'none' ? null : <Footer variant={footer} />}
    </div>
  );
}
