import { usePageMeta, type PageMeta } from '@/hooks/use-page-meta';

import { breadcrumbJsonLd, faqJsonLd, type Crumb, type Faq } from './json-ld';

interface MarketingMeta extends Omit<PageMeta, 'jsonLd'> {
  crumbs?: readonly Crumb[];
  faqs?: readonly Faq[];
  jsonLd?: object[];
}

/** usePageMeta plus the BreadcrumbList and FAQPage blocks built from the page's own lists. */
export function useMarketingMeta({ crumbs, faqs, jsonLd = [], ...meta }: MarketingMeta): void {
  usePageMeta({
    ...meta,
    jsonLd: [
      ...(crumbs ? [breadcrumbJsonLd(crumbs)] : []),
      ...(faqs ? [faqJsonLd(faqs)] : []),
      ...jsonLd,
    ],
  });
}

export const HOME_CRUMB: Crumb = { label: 'Home', path: '/' };
