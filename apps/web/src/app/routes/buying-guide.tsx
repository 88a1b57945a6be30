import { PLANS } from '@schemacheck/contracts';
import { Mail } from 'lucide-react';

import { SiteLayout } from '@/components/layouts/site-layout';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { SALES_EMAIL } from '@/config/site';
import { CtaSection } from '@/features/marketing/components/cta-section';
import { FaqSection } from '@/features/marketing/components/faq-section';
import { PageHero, Section } from '@/features/marketing/components/page-sections';
import { PricingTable } from '@/features/marketing/components/pricing-table';
import { ScrollTable } from '@/features/marketing/components/scroll-table';
import { buyingGuideFaqs } from '@/features/marketing/content/faqs';
import {
  fileSizeText,
  orderedPlans,
  priceText,
  rowsText,
  validationsText,
} from '@/features/marketing/lib/plan-copy';
import { HOME_CRUMB, useMarketingMeta } from '@/features/marketing/lib/use-marketing-meta';
import { validatesOnDevice } from '@/lib/plan-display';

const crumbs = [HOME_CRUMB, { label: 'Pricing', path: paths.buyingGuide }];
const { free, pro, business, enterprise } = PLANS;

const guidance = [
  {
    plan: free,
    who: 'You check a file now and then, or want to try SchemaCheck on real data first.',
    signs: `Your files are checked in your browser, at any size, and never leave your device; you do not need to keep schemas, results or reports. The ${fileSizeText(free).replace('Files up to ', '')} and ${rowsText(free).replace(' per file', '')} apply only to what runs and is stored on our servers.`,
  },
  {
    plan: pro,
    who: 'You check exports every week: a seller’s product feed, an accountant’s bank files, an operations team’s uploads.',
    signs:
      'You re-create the same schema each time, need to share the full error report, or hit the Free plan’s file or row limit.',
  },
  {
    plan: business,
    who: 'A team or a pipeline validates files automatically, or files are large.',
    signs:
      'You want to call an API before loading data, get a webhook when a check finishes, or validate files with unlimited rows.',
  },
  {
    plan: enterprise,
    who: 'Very large files or volumes, or procurement that needs a contract.',
    signs: 'You need custom file sizes and rate limits, dedicated infrastructure or an SLA.',
  },
];

type Cell = string | boolean;
const rows: { label: string; value: (tier: (typeof PLANS)[keyof typeof PLANS]) => Cell }[] = [
  { label: 'Price', value: (p) => (p.pricePence === null ? 'Custom' : `${priceText(p)}/month`) },
  {
    label: 'Validations',
    value: (p) =>
      validationsText(p).replace('validations ', '') +
      (validatesOnDevice(p) ? ' on our servers; unlimited in your browser' : ''),
  },
  {
    label: 'File size',
    value: (p) =>
      fileSizeText(p).replace('Files up to ', 'Up to ') +
      (validatesOnDevice(p) ? ' on our servers; any size in your browser' : ''),
  },
  {
    label: 'Rows per file',
    value: (p) =>
      rowsText(p).replace(' per file', '') +
      (validatesOnDevice(p) ? ' on our servers; unlimited in your browser' : ''),
  },
  { label: 'Several files at once', value: (p) => p.limits.concurrentValidations !== 1 },
  { label: 'Saved schemas', value: (p) => p.limits.savedSchemas },
  { label: 'Stored error reports (CSV)', value: (p) => p.limits.reportExport },
  { label: 'REST API, keys and webhooks', value: (p) => p.limits.apiAccess },
  {
    label: 'Support',
    value: (p) =>
      p.tier === 'free'
        ? 'Help center'
        : p.tier === 'pro'
          ? 'Email'
          : p.tier === 'business'
            ? 'Priority (48 h)'
            : 'Priority, with SLA',
  },
];

export function BuyingGuideRoute() {
  useMarketingMeta({
    title: 'Pricing and Buying Guide',
    description: `SchemaCheck plans in GBP: Free ${priceText(free)}, Pro ${priceText(pro)}/month, Business ${priceText(business)}/month, Enterprise on request. What each includes and which one fits you.`,
    keywords: [
      'SchemaCheck pricing',
      'CSV validator pricing',
      'data validation plans',
      'validation API pricing',
    ],
    path: paths.buyingGuide,
    crumbs,
    faqs: buyingGuideFaqs,
  });

  return (
    <SiteLayout>
      <PageHero
        crumbs={crumbs}
        eyebrow="Pricing"
        title="Plans and buying guide"
        lead="Four plans, priced monthly in pounds sterling. Start free with no card, and move up when your files or your team need more."
      />

      <Section title="Plans" tinted>
        <PricingTable />
        <p className="mt-6 text-sm text-zinc-600">
          Billed monthly in advance in GBP. Payments are non-refundable; cancel any time and keep
          your plan until the end of the month paid for. Prices change only with 30 days’ notice.
        </p>
      </Section>

      <Section title="Which plan fits you?">
        <ul className="grid gap-6 md:grid-cols-2">
          {guidance.map(({ plan, who, signs }) => (
            <li
              key={plan.tier}
              className="rounded-xl border border-zinc-200 bg-white p-6 shadow-xs"
            >
              <h3 className="text-lg font-semibold text-zinc-900">
                {plan.label}{' '}
                <span className="text-sm font-normal text-zinc-600">
                  {plan.pricePence === null ? 'custom price' : `${priceText(plan)}/month`}
                </span>
              </h3>
              <p className="mt-2 text-[15px] leading-7 text-zinc-700">{who}</p>
              <p className="mt-2 text-sm leading-6 text-zinc-600">
                <strong className="font-semibold text-zinc-800">Choose it when: </strong>
                {signs}
              </p>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Compare plans in detail" tinted>
        <ScrollTable
          label="Plan comparison"
          minWidth="min-w-[640px]"
          columns={[
            { key: 'feature', label: 'Feature' },
            ...orderedPlans().map((plan) => ({ key: plan.tier, label: plan.label })),
          ]}
        >
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row" className="px-4 py-3 font-medium text-zinc-900">
                {row.label}
              </th>
              {orderedPlans().map((plan) => {
                const value = row.value(plan);
                return (
                  <td key={plan.tier} className="px-4 py-3 text-zinc-700">
                    {value === true ? 'Yes' : value === false ? '—' : value}
                    {value === false ? <span className="sr-only">Not included</span> : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </ScrollTable>
      </Section>

      <Section
        title="Talk to sales about Enterprise"
        intro="Custom file sizes, unlimited validations, custom rate limits, dedicated infrastructure and an SLA, on a contract that suits your procurement."
      >
        <a
          href={`mailto:${SALES_EMAIL}?subject=${encodeURIComponent('SchemaCheck Enterprise')}`}
          className={buttonVariants({ size: 'lg' })}
        >
          <Mail aria-hidden="true" />
          Contact Sales
        </a>
      </Section>

      <FaqSection faqs={buyingGuideFaqs} />

      <CtaSection
        heading="Start on the Free plan"
        text="No credit card. Upgrade from your Profile page whenever you need more."
        action={{ label: 'Get Started Free', to: paths.auth }}
        secondary={{ label: 'Read the help center', to: paths.help }}
      />
    </SiteLayout>
  );
}
