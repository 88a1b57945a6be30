import {
  ArrowRight,
  Braces,
  Calculator,
  Check,
  CircleAlert,
  FileJson,
  FileSpreadsheet,
  ListChecks,
  Lock,
  Minus,
  SearchCheck,
  ShoppingCart,
  Truck,
  Upload,
  Users,
  Workflow,
  Zap,
} from 'lucide-react';
import { Link } from 'react-router-dom';

import { landingNavItems } from '@/components/layouts/nav-items';
import { SiteLayout } from '@/components/layouts/site-layout';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { SITE_DESCRIPTION } from '@/config/site';
import { CtaSection } from '@/features/marketing/components/cta-section';
import { FaqSection } from '@/features/marketing/components/faq-section';
import { IssueList } from '@/features/marketing/components/issue-list';
import { CardGrid, Section } from '@/features/marketing/components/page-sections';
import { PricingTable } from '@/features/marketing/components/pricing-table';
import { SchemaFields } from '@/features/marketing/components/schema-fields';
import { heroExample, schemaShowcase } from '@/features/marketing/content/engine-examples';
import { landingFaqs } from '@/features/marketing/content/faqs';
import {
  faqJsonLd,
  howToJsonLd,
  softwareApplicationJsonLd,
  webSiteJsonLd,
} from '@/features/marketing/lib/json-ld';
import { usePageMeta } from '@/hooks/use-page-meta';
import { useUser } from '@/lib/auth';

const features = [
  {
    icon: <ListChecks />,
    title: 'Your rules, your schema',
    text: 'Text, whole numbers, numbers, true/false, dates, emails, URLs and fixed lists, with required values, lengths, ranges, decimal places, patterns and uniqueness.',
  },
  {
    icon: <SearchCheck />,
    title: 'Every error, located',
    text: 'Each problem comes with its row and column (or JSON path), the value found and a message anyone can act on, not just the first one.',
  },
  {
    icon: <Zap />,
    title: 'Built for big files',
    text: 'Files are streamed and checked record by record, so large exports are validated without loading them whole into memory.',
  },
  {
    icon: <FileSpreadsheet />,
    title: 'CSV done properly',
    text: 'Quoted commas and line breaks, comma, semicolon, tab or pipe delimiters, and UTF-8, UTF-16 or Windows-1252 text.',
  },
  {
    icon: <FileJson />,
    title: 'JSON and NDJSON',
    text: 'Arrays of records, single objects or one record per line, with syntax errors reported by line and column.',
  },
  {
    icon: <Lock />,
    title: 'Private by default',
    text: 'The validator pages check files in your browser. In the workspace, files are processed in memory over encrypted connections and deleted after validation.',
  },
];

const steps = [
  {
    icon: ListChecks,
    title: 'Define your schema',
    text: 'List the fields you expect, their types and the rules each value must follow, or start from a template.',
  },
  {
    icon: Upload,
    title: 'Upload your file',
    text: 'Drag a CSV or JSON file in, straight from your export or spreadsheet.',
  },
  {
    icon: SearchCheck,
    title: 'Review the results',
    text: 'See every error by row and column, filter them, download the report and fix the file before you import.',
  },
];

const useCases = [
  {
    icon: <ShoppingCart />,
    title: 'E-commerce product feeds',
    text: (
      <>
        Unique SKUs, prices with two decimals and stock counts of zero or more before a feed reaches
        your shop or marketplace.{' '}
        <Link className="font-medium text-indigo-700 hover:underline" to="/templates#product-feed">
          Product feed template
        </Link>
      </>
    ),
  },
  {
    icon: <Calculator />,
    title: 'Accounting imports',
    text: (
      <>
        Transaction IDs, ISO dates, amounts and categories checked before the bank export goes into
        your ledger.{' '}
        <Link className="font-medium text-indigo-700 hover:underline" to="/templates#transactions">
          Transactions template
        </Link>
      </>
    ),
  },
  {
    icon: <Workflow />,
    title: 'Data pipelines',
    text: (
      <>
        Ingest checks through the REST API, so a bad partner file is stopped before it is loaded.{' '}
        <Link className="font-medium text-indigo-700 hover:underline" to={paths.validationApi}>
          Validation API
        </Link>
      </>
    ),
  },
  {
    icon: <Users />,
    title: 'CRM migrations',
    text: (
      <>
        Valid, unique emails and well-formed phone numbers before contacts are imported.{' '}
        <Link className="font-medium text-indigo-700 hover:underline" to="/templates#contacts">
          Contacts template
        </Link>
      </>
    ),
  },
  {
    icon: <Truck />,
    title: 'Logistics and operations',
    text: (
      <>
        Tracking numbers, positive weights and country codes before a carrier upload.{' '}
        <Link className="font-medium text-indigo-700 hover:underline" to="/templates#shipments">
          Shipments template
        </Link>
      </>
    ),
  },
  {
    icon: <Braces />,
    title: 'Developers and APIs',
    text: (
      <>
        Check API responses and config files against a JSON Schema you already have.{' '}
        <Link
          className="font-medium text-indigo-700 hover:underline"
          to={paths.jsonSchemaValidator}
        >
          JSON Schema validator
        </Link>
      </>
    ),
  },
];

const showcase = [
  { example: schemaShowcase.productFeed, text: 'Stock counts may not go below zero.' },
  { example: schemaShowcase.transactions, text: 'Dates must be real calendar dates.' },
  { example: schemaShowcase.userApi, text: 'Roles must come from a fixed list.' },
];

type Mark = true | false | 'partly';
const comparison: { label: string; schemacheck: Mark; spreadsheet: Mark; scripts: Mark }[] = [
  {
    label: 'Every error with its row and column',
    schemacheck: true,
    spreadsheet: 'partly',
    scripts: 'partly',
  },
  {
    label: 'Types, formats, ranges, patterns and uniqueness',
    schemacheck: true,
    spreadsheet: 'partly',
    scripts: true,
  },
  {
    label: 'Works on files larger than a spreadsheet opens',
    schemacheck: true,
    spreadsheet: false,
    scripts: true,
  },
  { label: 'No code to write or maintain', schemacheck: true, spreadsheet: true, scripts: false },
  {
    label: 'Reusable schema for the next file (saved on paid plans)',
    schemacheck: true,
    spreadsheet: false,
    scripts: true,
  },
  {
    label: 'Downloadable error report to share',
    schemacheck: true,
    spreadsheet: false,
    scripts: 'partly',
  },
  {
    label: 'API for automated pipelines',
    schemacheck: true,
    spreadsheet: false,
    scripts: 'partly',
  },
];

function MarkCell({ mark }: { mark: Mark }) {
  if (mark === true) {
    return (
      <span className="inline-flex items-center gap-1.5 text-green-800">
        <Check aria-hidden="true" className="size-4" />
        Yes
      </span>
    );
  }
  if (mark === 'partly') return <span className="text-zinc-700">With effort</span>;
  return (
    <span className="inline-flex items-center gap-1.5 text-zinc-600">
      <Minus aria-hidden="true" className="size-4" />
      No
    </span>
  );
}

const heroRows = heroExample.before.trimEnd().split('\n').length - 1;
const heroInvalidRows = new Set(heroExample.errors.map((e) => e.row)).size;

function ReportPreview() {
  return (
    <figure className="relative min-w-0 rounded-2xl border border-zinc-200 bg-white shadow-xl shadow-zinc-900/5">
      <div className="flex items-center justify-between gap-3 border-b border-zinc-100 px-4 py-4 sm:px-5">
        <div className="flex min-w-0 items-center gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-zinc-100 text-zinc-700">
            <FileSpreadsheet aria-hidden="true" className="size-[18px]" />
          </span>
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-zinc-900">products-march.csv</p>
            <p className="text-xs text-zinc-600">
              {heroRows} rows · {heroExample.schema.name} schema
            </p>
          </div>
        </div>
        <Badge variant="danger" className="shrink-0">
          <CircleAlert aria-hidden="true" className="size-3" />
          {heroExample.errors.length} errors
        </Badge>
      </div>
      <ul className="divide-y divide-zinc-100" data-testid="hero-report">
        {heroExample.errors.map((error) => (
          <li
            key={`${error.row}-${error.field}`}
            className="grid grid-cols-[3.25rem_minmax(0,1fr)] gap-x-3 px-4 py-3 text-sm sm:px-5"
          >
            <span className="tabular-nums text-zinc-600">Row {error.row}</span>
            <span className="min-w-0">
              <span className="font-mono text-[13px] text-zinc-900">{error.field}</span>
              <span className="block text-zinc-800">{error.message}</span>
              <span className="block break-all font-mono text-[13px] text-zinc-600">
                {error.value === null ? (
                  <span className="font-sans italic">empty</span>
                ) : (
                  error.value
                )}
              </span>
            </span>
          </li>
        ))}
      </ul>
      <figcaption className="border-t border-zinc-100 px-4 py-3 text-xs text-zinc-600 sm:px-5">
        The validator’s real report for this sample: {heroRows - heroInvalidRows} row valid,{' '}
        {heroInvalidRows} rows need fixing.
      </figcaption>
    </figure>
  );
}

export function LandingRoute() {
  const { data: user } = useUser();
  const ctaTarget = user ? paths.dashboard : paths.auth;
  const ctaLabel = user ? 'Go to your dashboard' : 'Start validating for free';

  usePageMeta({
    title: 'SchemaCheck: Validate CSV and JSON Files Against Your Schema',
    description: SITE_DESCRIPTION,
    keywords: [
      'CSV validator',
      'JSON validator',
      'CSV schema validation',
      'JSON schema validator',
      'data validation',
      'validate CSV before import',
    ],
    path: paths.home,
    jsonLd: [
      softwareApplicationJsonLd(SITE_DESCRIPTION),
      howToJsonLd('How to validate a CSV or JSON file with SchemaCheck', steps),
      faqJsonLd(landingFaqs),
      webSiteJsonLd(),
    ],
  });

  return (
    <SiteLayout navItems={landingNavItems}>
      <section className="relative overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 top-0 h-[520px] bg-gradient-to-b from-indigo-50/80 via-white to-white"
        />
        <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 pb-20 pt-14 sm:px-6 sm:pt-24 lg:grid-cols-[minmax(0,1.05fr)_minmax(0,1fr)] lg:px-8 lg:pb-28">
          <div className="min-w-0">
            <Badge>CSV and JSON validation</Badge>
            <h1 className="mt-5 text-4xl font-semibold tracking-tight text-zinc-900 sm:text-5xl lg:text-[3.4rem] lg:leading-[1.08]">
              Catch every data error before you import
            </h1>
            <p className="mt-6 max-w-xl text-lg leading-8 text-zinc-600">
              Define a schema, drop a CSV or JSON file, and see every header, type and format
              problem by row and column. Fix the file once, and import it with confidence.
            </p>
            <div className="mt-9 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
              <Link to={ctaTarget} className={buttonVariants({ size: 'lg' })}>
                {ctaLabel}
                <ArrowRight aria-hidden="true" />
              </Link>
              <Link
                to={paths.csvValidator}
                className={buttonVariants({ variant: 'outline', size: 'lg' })}
              >
                CSV validator
              </Link>
              <Link
                to={paths.jsonValidator}
                className={buttonVariants({ variant: 'outline', size: 'lg' })}
              >
                JSON validator
              </Link>
            </div>
            <p className="mt-6 text-sm text-zinc-600">
              Free plan · No credit card needed · Files deleted after validation
            </p>
          </div>
          <ReportPreview />
        </div>
      </section>

      <Section
        id="features"
        eyebrow="Features"
        title="Everything you need to trust a data file"
        tinted
      >
        <CardGrid items={features} />
      </Section>

      <Section
        id="use-cases"
        eyebrow="Use cases"
        title="For anyone who imports files someone else exported"
        intro="Sellers, accountants, operations and CRM teams use the web app; data and engineering teams use the same checks through the API."
      >
        <CardGrid items={useCases} />
      </Section>

      <Section
        id="examples"
        eyebrow="Example schemas"
        title="Rules written once, checked on every row"
        intro="Three schemas from our templates, a value each one rejects, and the message the validator gives for it."
        tinted
      >
        <ul className="grid gap-6 lg:grid-cols-3">
          {showcase.map(({ example, text }) => (
            <li
              key={example.id}
              className="flex min-w-0 flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-5 shadow-xs"
            >
              <div>
                <h3 className="text-base font-semibold text-zinc-900">
                  {example.schema.name}{' '}
                  <span className="text-sm font-normal uppercase text-zinc-600">
                    ({example.schema.fileType})
                  </span>
                </h3>
                <p className="mt-1 text-sm text-zinc-600">{text}</p>
              </div>
              <SchemaFields schema={example.schema} />
              <div className="min-w-0">
                <p className="text-xs font-medium uppercase tracking-wide text-zinc-600">
                  A record with a mistake
                </p>
                <pre
                  tabIndex={0}
                  aria-label={`${example.schema.name}: a record with a mistake`}
                  className="mt-1.5 overflow-x-auto rounded-md bg-zinc-950 px-3 py-2 font-mono text-[12.5px] leading-5 text-zinc-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400"
                >
                  {example.before.trimEnd()}
                </pre>
              </div>
              <IssueList issues={example.errors} fileType={example.schema.fileType} />
            </li>
          ))}
        </ul>
        <p className="mt-8 text-sm text-zinc-600">
          More ready-made schemas:{' '}
          <Link to={paths.templates} className="font-medium text-indigo-700 hover:underline">
            browse all eight templates
          </Link>
          .
        </p>
      </Section>

      <Section
        id="how-it-works"
        eyebrow="How it works"
        title="Three steps from messy export to clean import"
      >
        <ol className="grid gap-6 md:grid-cols-3">
          {steps.map(({ icon: Icon, title, text }, index) => (
            <li key={title} className="relative rounded-xl border border-zinc-200 bg-white p-6">
              <div className="flex items-center gap-3">
                <span className="flex size-8 items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white">
                  {index + 1}
                </span>
                <Icon aria-hidden="true" className="size-5 text-zinc-500" />
              </div>
              <h3 className="mt-4 text-base font-semibold text-zinc-900">{title}</h3>
              <p className="mt-2 text-sm leading-6 text-zinc-600">{text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section
        id="pricing"
        eyebrow="Pricing"
        title="Simple monthly plans in pounds sterling"
        intro={
          <>
            Start free, upgrade when you need history, stored reports, saved schemas or the API.
            Billed monthly in advance; cancel any time.{' '}
            <Link to={paths.buyingGuide} className="font-medium text-indigo-700 hover:underline">
              Which plan fits you?
            </Link>
          </>
        }
        tinted
      >
        <PricingTable />
      </Section>

      <Section
        id="comparison"
        eyebrow="Comparison"
        title="Why not a spreadsheet or a script?"
        intro={
          <>
            How SchemaCheck compares with the two usual ways of checking a file. For other
            validation tools, see{' '}
            <Link to={paths.compare} className="font-medium text-indigo-700 hover:underline">
              the detailed comparison
            </Link>
            .
          </>
        }
      >
        <div
          className="overflow-x-auto rounded-xl border border-zinc-200"
          tabIndex={0}
          role="region"
          aria-label="Comparison table"
        >
          <table className="w-full min-w-[560px] text-left text-sm">
            <thead className="bg-zinc-50 text-zinc-900">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  What you need
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  SchemaCheck
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Checking in a spreadsheet
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Writing your own script
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {comparison.map((row) => (
                <tr key={row.label}>
                  <th scope="row" className="px-4 py-3 font-medium text-zinc-900">
                    {row.label}
                  </th>
                  <td className="px-4 py-3">
                    <MarkCell mark={row.schemacheck} />
                  </td>
                  <td className="px-4 py-3">
                    <MarkCell mark={row.spreadsheet} />
                  </td>
                  <td className="px-4 py-3">
                    <MarkCell mark={row.scripts} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <FaqSection faqs={landingFaqs} />

      <CtaSection
        heading="Validate your next file in minutes"
        text="Start on the free plan with no credit card. Upgrade when your team needs history, stored reports and the API."
        action={{ label: user ? 'Go to your dashboard' : 'Get Started Free', to: ctaTarget }}
        secondary={{ label: 'Try the CSV validator', to: paths.csvValidator }}
      />
    </SiteLayout>
  );
}
