import {
  ArrowRight,
  CircleAlert,
  FileJson,
  FileSpreadsheet,
  ListChecks,
  Lock,
  SearchCheck,
  Upload,
  Zap,
} from 'lucide-react';
import { Link } from 'react-router-dom';

import type { NavItem } from '@/components/layouts/nav-items';
import { SiteLayout } from '@/components/layouts/site-layout';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { SITE_DESCRIPTION } from '@/config/site';
import { usePageMeta } from '@/hooks/use-page-meta';
import { useUser } from '@/lib/auth';

const landingNav: NavItem[] = [
  { label: 'Features', section: 'features' },
  { label: 'How it works', section: 'how-it-works' },
  { label: 'Templates', to: paths.templates },
  { label: 'Pricing', to: paths.buyingGuide },
  { label: 'Help', to: paths.help },
];

const sampleErrors = [
  { row: 4, field: 'email', message: 'Must be a valid email', value: 'jane@example' },
  { row: 9, field: 'price', message: 'Must have at most 2 decimal places', value: '19.999' },
  { row: 12, field: 'sku', message: 'Required value is missing', value: '' },
  { row: 15, field: 'created_at', message: 'Must be a date like YYYY-MM-DD', value: '15/03/2024' },
];

const features = [
  {
    icon: ListChecks,
    title: 'Your rules, your schema',
    text: 'Strings, integers, numbers, booleans, dates, emails and URLs, with required values, lengths, ranges, patterns and allowed values.',
  },
  {
    icon: SearchCheck,
    title: 'Every error, located',
    text: 'Each problem comes with its row and column (or JSON path), the value found and a message anyone can act on.',
  },
  {
    icon: Zap,
    title: 'Built for big files',
    text: 'Files are streamed and checked row by row, so large exports are validated without waiting on an upload tool.',
  },
  {
    icon: FileSpreadsheet,
    title: 'CSV done properly',
    text: 'Quoted commas and line breaks, any common delimiter, UTF-8 with or without a byte-order mark.',
  },
  {
    icon: FileJson,
    title: 'JSON and NDJSON',
    text: 'Arrays of records or one record per line, with syntax errors reported by line and column.',
  },
  {
    icon: Lock,
    title: 'Private by default',
    text: 'Files are processed in memory over encrypted connections and deleted after validation.',
  },
];

const steps = [
  {
    icon: ListChecks,
    title: 'Define your schema',
    text: 'List the fields you expect, their types and the rules each value must follow.',
  },
  {
    icon: Upload,
    title: 'Drop your file',
    text: 'Drag in a CSV or JSON file straight from your export or spreadsheet.',
  },
  {
    icon: SearchCheck,
    title: 'Review the results',
    text: 'See every error by row and column, filter them, and fix the file before you import.',
  },
];

function ReportPreview() {
  return (
    <figure className="relative rounded-2xl border border-zinc-200 bg-white shadow-xl shadow-zinc-900/5">
      <div className="flex items-center justify-between gap-3 border-b border-zinc-100 px-5 py-4">
        <div className="flex min-w-0 items-center gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-zinc-100 text-zinc-700">
            <FileSpreadsheet aria-hidden="true" className="size-[18px]" />
          </span>
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-zinc-900">products-march.csv</p>
            <p className="text-xs text-zinc-600">1,248 rows · Product feed schema</p>
          </div>
        </div>
        <Badge variant="danger" className="shrink-0">
          <CircleAlert aria-hidden="true" className="size-3" />4 errors
        </Badge>
      </div>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[420px] text-left text-sm">
          <thead className="text-xs text-zinc-600">
            <tr>
              <th scope="col" className="px-5 py-2.5 font-medium">
                Row
              </th>
              <th scope="col" className="px-3 py-2.5 font-medium">
                Field
              </th>
              <th scope="col" className="px-3 py-2.5 font-medium">
                Problem
              </th>
              <th scope="col" className="px-5 py-2.5 font-medium">
                Value
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {sampleErrors.map((error) => (
              <tr key={error.row}>
                <td className="px-5 py-2.5 tabular-nums text-zinc-600">{error.row}</td>
                <td className="px-3 py-2.5 font-mono text-[13px] text-zinc-900">{error.field}</td>
                <td className="px-3 py-2.5 text-zinc-800">{error.message}</td>
                <td className="px-5 py-2.5 font-mono text-[13px] text-zinc-600">
                  {error.value || <span className="italic">empty</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <figcaption className="border-t border-zinc-100 px-5 py-3 text-xs text-zinc-600">
        Example report: 1,244 rows valid, 4 rows need fixing.
      </figcaption>
    </figure>
  );
}

export function LandingRoute() {
  const { data: user } = useUser();
  const ctaTarget = user ? paths.dashboard : paths.auth;

  usePageMeta({
    title: 'SchemaCheck: Validate CSV and JSON Files Against Your Schema',
    description: SITE_DESCRIPTION,
    keywords: ['CSV validator', 'JSON validator', 'schema validation', 'data validation'],
    path: paths.home,
  });

  return (
    <SiteLayout navItems={landingNav}>
      <section className="relative overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 top-0 h-[520px] bg-gradient-to-b from-indigo-50/80 via-white to-white"
        />
        <div className="relative mx-auto grid max-w-7xl items-center gap-14 px-4 pb-20 pt-16 sm:px-6 sm:pt-24 lg:grid-cols-[1.05fr_1fr] lg:px-8 lg:pb-28">
          <div>
            <Badge>CSV and JSON validation</Badge>
            <h1 className="mt-5 text-4xl font-semibold tracking-tight text-zinc-900 sm:text-5xl lg:text-[3.4rem] lg:leading-[1.08]">
              Catch every data error before you import
            </h1>
            <p className="mt-6 max-w-xl text-lg leading-8 text-zinc-600">
              Define a schema, drop a CSV or JSON file, and see every header, type and format
              problem by row and column. Fix the file once, and import it with confidence.
            </p>
            <div className="mt-9 flex flex-col gap-3 sm:flex-row">
              <Link to={ctaTarget} className={buttonVariants({ size: 'lg' })}>
                {user ? 'Go to your dashboard' : 'Start validating for free'}
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

      <section
        id="features"
        tabIndex={-1}
        aria-labelledby="features-heading"
        className="scroll-mt-20 border-t border-zinc-200 bg-zinc-50 focus:outline-none"
      >
        <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold uppercase tracking-wider text-indigo-700">
              Features
            </p>
            <h2
              id="features-heading"
              className="mt-3 text-3xl font-semibold tracking-tight text-zinc-900"
            >
              Everything you need to trust a data file
            </h2>
          </div>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {features.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-xl border border-zinc-200 bg-white p-6 shadow-xs">
                <span
                  aria-hidden="true"
                  className="flex size-10 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600"
                >
                  <Icon className="size-5" />
                </span>
                <h3 className="mt-4 text-base font-semibold text-zinc-900">{title}</h3>
                <p className="mt-2 text-sm leading-6 text-zinc-600">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        id="how-it-works"
        tabIndex={-1}
        aria-labelledby="how-heading"
        className="scroll-mt-20 focus:outline-none"
      >
        <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold uppercase tracking-wider text-indigo-700">
              How it works
            </p>
            <h2
              id="how-heading"
              className="mt-3 text-3xl font-semibold tracking-tight text-zinc-900"
            >
              Three steps from messy export to clean import
            </h2>
          </div>
          <ol className="mt-12 grid gap-6 md:grid-cols-3">
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
        </div>
      </section>

      <section aria-labelledby="cta-heading" className="px-4 pb-20 sm:px-6 lg:px-8">
        <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 rounded-2xl bg-zinc-900 px-6 py-12 sm:px-12 md:flex-row md:items-center md:justify-between">
          <div>
            <h2 id="cta-heading" className="text-2xl font-semibold tracking-tight text-white">
              Validate your next file in minutes
            </h2>
            <p className="mt-2 text-base text-zinc-300">
              Start on the free plan. Upgrade when your files grow.
            </p>
          </div>
          <Link
            to={ctaTarget}
            className={buttonVariants({
              variant: 'inverse',
              size: 'lg',
              className: 'focus-visible:ring-offset-zinc-900',
            })}
          >
            {user ? 'Go to your dashboard' : 'Get Started Free'}
            <ArrowRight aria-hidden="true" />
          </Link>
        </div>
      </section>
    </SiteLayout>
  );
}
