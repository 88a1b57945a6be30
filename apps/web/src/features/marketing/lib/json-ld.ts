import { PLANS } from '@schemacheck/contracts';

import { SITE_NAME } from '@/config/site';
import { siteUrl } from '@/lib/site-url';

// Structured data built from the same lists the pages render, so that what a search engine reads
// is what a visitor sees.

export interface Faq {
  question: string;
  answer: string;
}

export interface Crumb {
  label: string;
  /** Root-relative path. */
  path: string;
}

export function faqJsonLd(faqs: readonly Faq[]): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: faqs.map((faq) => ({
      '@type': 'Question',
      name: faq.question,
      acceptedAnswer: { '@type': 'Answer', text: faq.answer },
    })),
  };
}

export function breadcrumbJsonLd(crumbs: readonly Crumb[]): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.label,
      item: siteUrl(crumb.path),
    })),
  };
}

const pounds = (pence: number) => (pence / 100).toFixed(2);

/** The product with one GBP offer per priced plan (Enterprise is priced on request). */
export function softwareApplicationJsonLd(description: string): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: SITE_NAME,
    applicationCategory: 'BusinessApplication',
    operatingSystem: 'Web browser',
    description,
    url: siteUrl('/'),
    offers: Object.values(PLANS).flatMap((plan) =>
      plan.pricePence === null
        ? []
        : [
            {
              '@type': 'Offer',
              name: plan.label,
              price: pounds(plan.pricePence),
              priceCurrency: 'GBP',
              priceSpecification: {
                '@type': 'UnitPriceSpecification',
                price: pounds(plan.pricePence),
                priceCurrency: 'GBP',
                billingDuration: 'P1M',
              },
            },
          ],
    ),
  };
}

export function howToJsonLd(
  name: string,
  steps: readonly { title: string; text: string }[],
): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'HowTo',
    name,
    step: steps.map((step, index) => ({
      '@type': 'HowToStep',
      position: index + 1,
      name: step.title,
      text: step.text,
    })),
  };
}

/** The site search: the help center filters its questions by `q`. */
export function webSiteJsonLd(): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: SITE_NAME,
    url: siteUrl('/'),
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${siteUrl('/help')}?q={search_term_string}` },
      'query-input': 'required name=search_term_string',
    },
  };
}
