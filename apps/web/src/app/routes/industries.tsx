import { Braces, Calculator, Database, ShoppingCart, Truck, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { CtaSection } from '@/features/marketing/components/cta-section';
import { FaqSection } from '@/features/marketing/components/faq-section';
import { PageHero } from '@/features/marketing/components/page-sections';
import { industryFaqs } from '@/features/marketing/content/faqs';
import { findTemplate } from '@/features/marketing/content/templates';
import { HOME_CRUMB, useMarketingMeta } from '@/features/marketing/lib/use-marketing-meta';

const crumbs = [HOME_CRUMB, { label: 'Industries', path: paths.industries }];

interface Industry {
  id: string;
  icon: ReactNode;
  title: string;
  text: string;
  validations: string[];
  templateId: string;
}

const industries: Industry[] = [
  {
    id: 'ecommerce',
    icon: <ShoppingCart />,
    title: 'E-commerce',
    text: 'Product feeds and order exports move between shops, marketplaces and warehouses; one bad row can reject a whole feed.',
    validations: [
      'SKUs present and unique',
      'Prices positive, with at most 2 decimal places',
      'Stock quantities whole numbers of 0 or more',
      'Image links absolute https:// URLs',
      'Categories from your list',
    ],
    templateId: 'product-feed',
  },
  {
    id: 'finance',
    icon: <Calculator />,
    title: 'Finance and accounting',
    text: 'Bank exports and ledger imports must balance; dates and amounts in the wrong format break reconciliations.',
    validations: [
      'Transaction IDs like TXN plus 6 digits',
      'Dates in YYYY-MM-DD',
      'Amounts with at most 2 decimal places',
      'Categories Income, Expense or Transfer',
      'No duplicate transaction IDs',
    ],
    templateId: 'transactions',
  },
  {
    id: 'logistics',
    icon: <Truck />,
    title: 'Logistics',
    text: 'Carrier and warehouse uploads fail on a missing tracking number or a country written in full.',
    validations: [
      'Tracking numbers present, unique, in the carrier’s format',
      'Weights in kg, positive',
      'Two-letter ISO country codes',
      'Dispatch dates that are real calendar dates',
    ],
    templateId: 'shipments',
  },
  {
    id: 'data-teams',
    icon: <Database />,
    title: 'Data teams',
    text: 'Ingest checks stop a partner’s malformed file before it reaches the warehouse, through the API or by hand.',
    validations: [
      'User IDs positive integers',
      'ISO 8601 timestamps with time zone',
      'Event types from a fixed list',
      'Required columns present, no unexpected ones',
    ],
    templateId: 'event-data',
  },
  {
    id: 'crm',
    icon: <Users />,
    title: 'CRM and sales operations',
    text: 'Contact imports create duplicates and bounced emails when the list is not checked first.',
    validations: [
      'Valid, unique email addresses',
      'Names between 1 and 100 characters',
      'Phone numbers in international format',
      'Company names of sensible length',
    ],
    templateId: 'contacts',
  },
  {
    id: 'engineering',
    icon: <Braces />,
    title: 'Engineering',
    text: 'API responses, fixtures and config files drift from what the code expects; a schema catches it in review.',
    validations: [
      'IDs positive integers, roles from a fixed list',
      'Created-at times in ISO 8601',
      'No properties the schema does not list',
      'Semantic version numbers and https API URLs in configs',
    ],
    templateId: 'user-api',
  },
];

export function IndustriesRoute() {
  useMarketingMeta({
    title: 'Data Validation by Industry: E-commerce, Finance, Logistics, CRM and More',
    description:
      'The checks each industry runs on CSV and JSON files before import, with a ready-made schema template for each: product feeds, transactions, shipments, events, contacts and APIs.',
    keywords: [
      'product feed validation',
      'accounting import validation',
      'CRM import CSV',
      'logistics data validation',
      'data quality checks',
    ],
    path: paths.industries,
    crumbs,
    faqs: industryFaqs,
  });

  return (
    <SiteLayout>
      <PageHero
        crumbs={crumbs}
        eyebrow="Industries"
        title="The checks your industry’s files need"
        lead="Every industry has its own way for an import to go wrong. Here are the validations teams run most, and a template to start from for each."
      >
        <nav aria-label="Industries" className="flex flex-wrap gap-2">
          {industries.map((industry) => (
            <a
              key={industry.id}
              href={`#${industry.id}`}
              className={buttonVariants({ variant: 'outline', size: 'sm' })}
            >
              {industry.title}
            </a>
          ))}
        </nav>
      </PageHero>

      <div className="bg-zinc-50">
        <div className="mx-auto grid max-w-7xl gap-6 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:px-8">
          {industries.map((industry) => {
            const template = findTemplate(industry.templateId);
            return (
              <section
                key={industry.id}
                id={industry.id}
                tabIndex={-1}
                aria-labelledby={`${industry.id}-heading`}
                className="flex min-w-0 scroll-mt-20 flex-col rounded-2xl border border-zinc-200 bg-white p-6 shadow-xs focus:outline-none"
              >
                <div className="flex items-center gap-3">
                  <span
                    aria-hidden="true"
                    className="flex size-10 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 [&_svg]:size-5"
                  >
                    {industry.icon}
                  </span>
                  <h2 id={`${industry.id}-heading`} className="text-xl font-semibold text-zinc-900">
                    {industry.title}
                  </h2>
                </div>
                <p className="mt-3 text-[15px] leading-7 text-zinc-700">{industry.text}</p>
                <h3 className="mt-5 text-sm font-semibold text-zinc-900">Common validations</h3>
                <ul className="mt-2 grid flex-1 gap-1.5 text-sm text-zinc-700">
                  {industry.validations.map((validation) => (
                    <li key={validation} className="ml-5 list-disc">
                      {validation}
                    </li>
                  ))}
                </ul>
                {template ? (
                  <Link
                    to={`${paths.templates}#${template.id}`}
                    className="mt-5 self-start text-sm font-medium text-indigo-700 hover:underline"
                  >
                    Use the “{template.title}” template
                  </Link>
                ) : null}
              </section>
            );
          })}
        </div>
      </div>

      <FaqSection faqs={industryFaqs} heading="Data protection and GDPR" />

      <CtaSection
        heading="Check your next import before it fails"
        text="Create a free account, pick your industry’s template and validate a file in minutes."
        action={{ label: 'Get Started Free', to: paths.auth }}
        secondary={{ label: 'Browse templates', to: paths.templates }}
      />
    </SiteLayout>
  );
}
