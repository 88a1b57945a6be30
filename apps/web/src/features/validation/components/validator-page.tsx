import { PLANS } from '@schemacheck/contracts';
import type { FileType } from '@schemacheck/engine';
import { ArrowRight, FileSearch, ListChecks, Lock, ShieldCheck, UploadCloud } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { usePageMeta, type PageMeta } from '@/hooks/use-page-meta';
import { useUser } from '@/lib/auth';
import { serverLimitsText } from '@/lib/plan-display';

import type { ValidatorPreset } from '../lib/use-preset';
import { LocalValidator } from './local-validator';

const COPY = {
  csv: {
    title: 'CSV Validator',
    heading: 'Validate a CSV file against your schema',
    pitch:
      'Check headers, data types, required values, lengths, patterns, dates and allowed values, with every error reported by row and column, before the file reaches your import.',
    description:
      'Free CSV validator that runs in your browser: check headers, types, required values and formats by row and column. Your file is never uploaded.',
    path: paths.csvValidator,
    other: { label: 'JSON validator', to: paths.jsonValidator },
  },
  json: {
    title: 'JSON Validator',
    heading: 'Validate a JSON file against your schema',
    pitch:
      'Check every record of a JSON array or NDJSON file for missing properties, wrong types, formats and allowed values, with each error given by record and JSON path.',
    description:
      'Free JSON validator that runs in your browser: check records for missing properties, wrong types and formats by JSON path. Your file is never uploaded.',
    path: paths.jsonValidator,
    other: { label: 'CSV validator', to: paths.csvValidator },
  },
} as const;

const STEPS = [
  {
    icon: ListChecks,
    title: 'Define the schema',
    text: 'Add fields with types and rules, infer them from your file, or import a JSON Schema or Table Schema.',
  },
  {
    icon: UploadCloud,
    title: 'Choose a file',
    text: 'Drop it in. It is read from your disk in small pieces by a background worker, so even large files stay smooth.',
  },
  {
    icon: FileSearch,
    title: 'Fix every error',
    text: 'See counts by column and error type, filter the list, and download the complete report as CSV.',
  },
];

interface ValidatorPageProps {
  fileType: FileType;
  /** The route's own metadata (keywords, JSON-LD, a longer title), over the defaults below. */
  meta: Partial<PageMeta> & Pick<PageMeta, 'keywords'>;
  /** The route's guide content, below the validator. */
  children?: ReactNode;
  /** A template's schema and sample file to start with. */
  preset?: ValidatorPreset | undefined;
}

export function ValidatorPage({ fileType, meta, children, preset }: ValidatorPageProps) {
  const copy = COPY[fileType];
  const { data: user } = useUser();
  usePageMeta({ title: copy.title, description: copy.description, path: copy.path, ...meta });
  return (
    <SiteLayout className="bg-zinc-50">
      <section className="border-b border-zinc-200 bg-white">
        <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
          <p className="text-sm font-semibold uppercase tracking-wider text-indigo-700">
            {copy.title}
          </p>
          <h1 className="mt-2 max-w-3xl text-3xl font-semibold tracking-tight text-zinc-900 sm:text-4xl">
            {copy.heading}
          </h1>
          <p className="mt-4 max-w-2xl text-base leading-7 text-zinc-600 sm:text-lg sm:leading-8">
            {copy.pitch}
          </p>
          <div
            className="mt-6 flex max-w-2xl items-start gap-3 rounded-xl border border-green-200 bg-green-50 p-4"
            data-testid="privacy-note"
          >
            <ShieldCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-green-700" />
            <p className="text-sm text-green-900">
              <strong className="font-semibold">Your file never leaves this device.</strong>{' '}
              Validation runs inside your browser; nothing is uploaded, stored or logged. No account
              needed.
            </p>
          </div>
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-10 lg:px-8">
        <LocalValidator fileType={fileType} preset={preset} />
      </div>

      <section aria-labelledby="how-heading" className="border-t border-zinc-200 bg-white">
        <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 lg:px-8">
          <h2 id="how-heading" className="text-2xl font-semibold tracking-tight text-zinc-900">
            How it works
          </h2>
          <ol className="mt-8 grid gap-6 md:grid-cols-3">
            {STEPS.map(({ icon: Icon, title, text }, i) => (
              <li key={title} className="rounded-xl border border-zinc-200 bg-zinc-50 p-5">
                <span
                  aria-hidden="true"
                  className="flex size-10 items-center justify-center rounded-lg bg-white text-indigo-600 ring-1 ring-zinc-200"
                >
                  <Icon className="size-5" />
                </span>
                <h3 className="mt-4 text-base font-semibold text-zinc-900">
                  <span className="sr-only">Step {i + 1}: </span>
                  {title}
                </h3>
                <p className="mt-1.5 text-sm leading-6 text-zinc-600">{text}</p>
              </li>
            ))}
          </ol>

          <div className="mt-12 flex flex-col gap-6 rounded-2xl bg-zinc-900 p-6 text-white sm:p-8 lg:flex-row lg:items-center lg:justify-between">
            <div className="max-w-2xl">
              <h2 className="text-xl font-semibold">Validate the same files every week?</h2>
              <p className="mt-2 text-sm leading-6 text-zinc-300">
                A free account adds a workspace that checks your files on this device too, at any
                size; paid plans save schemas for reuse, keep your results and reports and open the
                REST API for your pipelines.
              </p>
              <p className="mt-3 flex items-start gap-2 text-xs text-zinc-400">
                <Lock aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
                <span>
                  The {PLANS.free.label} plan’s {serverLimitsText(PLANS.free)} apply only to what
                  runs and is stored on our servers; paid plans process files there over encrypted
                  connections.
                </span>
              </p>
            </div>
            <div className="flex flex-col gap-3 sm:flex-row">
              <Link
                to={user ? paths.dashboard : paths.register}
                className={buttonVariants({ variant: 'inverse', size: 'lg' })}
              >
                {user ? 'Open your dashboard' : 'Sign up free'}
                <ArrowRight aria-hidden="true" />
              </Link>
              <Link
                to={copy.other.to}
                className="inline-flex h-12 items-center justify-center rounded-lg px-4 text-base font-medium text-white underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
              >
                {copy.other.label}
              </Link>
            </div>
          </div>
        </div>
      </section>
      {children}
    </SiteLayout>
  );
}
