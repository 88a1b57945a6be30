import {
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  PLANS,
  SAMPLE_ERRORS,
  SYNC_MAX_BYTES,
  SYNC_MAX_ROWS,
  TEST_MODE_MAX_FILE_BYTES,
  TEST_MODE_RATE_PER_MINUTE,
} from '@schemacheck/contracts';
import { Info } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';

import { ActionLinks } from '@/components/ui/action-links';
import { paths } from '@/config/paths';
import { formatBytes, formatCount } from '@/lib/format';
import { siteUrl } from '@/lib/site-url';

import { endpointSamples, type EndpointSample } from '../samples';
import { ClientSection } from '../client-section';
import { WebhooksSection } from '../webhooks-section';
import { CodeSample } from './code-sample';
import { errorCodes, Inline, operationId, operations } from './endpoint-reference';
import { MethodBadge } from './method-badge';

// /api-docs: a guide from a Business account to a validated file in a pipeline, then the full
// reference rendered from the OpenAPI document.

const SECTIONS = [
  { id: 'getting-started', label: 'Getting Started' },
  { id: 'authentication', label: 'Authentication' },
  { id: 'rate-limits', label: 'Rate Limits' },
  { id: 'schemas', label: 'Schemas' },
  { id: 'validation', label: 'Validation' },
  { id: 'webhooks', label: 'Jobs and webhooks' },
  { id: 'errors', label: 'Errors' },
  { id: 'client', label: 'TypeScript client' },
  { id: 'reference', label: 'Endpoint reference' },
] as const;

const business = PLANS.business.limits;

/**
 * The site's origin for the samples' absolute URLs, so that a copied cURL line works as it is:
 * the canonical link's, which the pre-render writes (APP_URL; the server rewrites it when it runs
 * under another origin) and the API answers at. The browser reads the same link, so hydration
 * repeats the pre-rendered line instead of changing it (a layout shift, docs/decisions/231).
 */
function siteOrigin(): string {
  if (typeof document === 'undefined') return siteUrl('');
  const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
  return canonical ? new URL(canonical).origin : window.location.origin;
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24">
      <h2
        id={`${id}-heading`}
        className="text-xl font-semibold tracking-tight text-zinc-900 sm:text-2xl"
      >
        {title}
      </h2>
      <div className="mt-4 grid grid-cols-1 gap-5 text-sm leading-6 text-zinc-700">{children}</div>
    </section>
  );
}

function Code({ children }: { children: ReactNode }) {
  return <code className="code-inline">{children}</code>;
}

function Endpoint({ sample, children }: { sample: EndpointSample; children?: ReactNode }) {
  return (
    <div className="grid min-w-0 grid-cols-1 gap-3">
      <h3 className="flex flex-wrap items-center gap-2 text-base font-semibold text-zinc-900">
        <MethodBadge method={sample.method} />
        <code className="break-all font-mono text-sm font-medium">{sample.path}</code>
        <span className="sr-only">: </span>
        <span className="text-sm font-normal text-zinc-600">{sample.title}</span>
      </h3>
      {children}
      <CodeSample sample={sample} />
    </div>
  );
}

export function ApiDocsContent() {
  const [origin] = useState(siteOrigin);
  const base = `${origin}/api/v1`;
  const samples = Object.fromEntries(endpointSamples(base).map((s) => [s.operationId, s]));
  const s = (id: string) => samples[id]!;

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8 lg:py-14">
      <p className="text-sm font-semibold uppercase tracking-wider text-indigo-700">Developers</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-zinc-900 sm:text-4xl">
        API Documentation
      </h1>
      <p className="mt-3 max-w-3xl text-base leading-7 text-zinc-600">
        Validate CSV and JSON files from your data pipeline with the same engine as the dashboard:
        create a schema once, send files, and stop bad data before it lands.
      </p>
      <div
        role="note"
        className="mt-6 flex max-w-3xl gap-3 rounded-lg border border-indigo-200 bg-indigo-50 p-4 text-sm text-indigo-950"
      >
        <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-indigo-700" />
        <p>
          API access is included in the Business and Enterprise plans. Create and manage your API
          keys in your{' '}
          <Link
            to={paths.profile}
            className="font-medium text-indigo-800 underline underline-offset-2"
          >
            profile
          </Link>
          .
        </p>
      </div>

      <div className="mt-10 lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:gap-12">
        <nav aria-label="On this page" className="hidden lg:block">
          <ul className="sticky top-24 grid gap-1 text-sm">
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="block rounded-md px-2 py-1.5 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                >
                  {section.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="grid min-w-0 grid-cols-1 gap-14">
          <Section id="getting-started" title="Getting Started">
            <p>
              The base URL of every endpoint is{' '}
              <code
                data-testid="api-base-url"
                className="break-all rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[13px] text-zinc-900"
              >
                {base}
              </code>
              . Requests and responses are JSON (files go up as <Code>multipart/form-data</Code>),
              with snake_case properties.
            </p>
            <ol className="grid list-decimal gap-2 pl-5">
              <li>
                On the Business or Enterprise plan, open your{' '}
                <Link
                  to={paths.profile}
                  className="font-medium text-indigo-700 underline underline-offset-2"
                >
                  profile
                </Link>{' '}
                and create an API key in the “API keys” section. Copy it: it is shown once.
              </li>
              <li>
                Store it where your pipeline reads secrets, for example as{' '}
                <Code>SCHEMACHECK_API_KEY</Code> in its environment. The samples below read it from
                there.
              </li>
              <li>
                Create a schema (once), then validate each file against its <Code>schema_id</Code>.
              </li>
            </ol>
            <Endpoint sample={s('validateFile')}>
              <p>
                With <Code>SCHEMA_ID</Code> set to a schema’s id, this validates{' '}
                <Code>products.csv</Code> and prints whether it is valid, how many errors it has,
                and the id of the full report.
              </p>
            </Endpoint>
          </Section>

          <Section id="authentication" title="Authentication">
            <p>
              Send your key in the <Code>Authorization</Code> header of every request:{' '}
              <Code>Authorization: Bearer sc_…</Code>. Keys start with <Code>sc_</Code> and end with
              a checksum, so a mistyped key is refused at once. Keys in the URL are refused, and the
              API never uses your browser’s sign-in cookie.
            </p>
            <p>
              <strong className="font-semibold text-zinc-900">Test mode.</strong> Create a test key
              (<Code>sc_test_…</Code>) beside your live keys in your profile to build and run your
              integration’s tests: validations, jobs and webhooks work in full and every result and
              job event says <Code>{'"livemode": false'}</Code>. Test requests never count against
              your monthly validations; they take files up to{' '}
              {formatBytes(TEST_MODE_MAX_FILE_BYTES)} and {TEST_MODE_RATE_PER_MINUTE} requests a
              minute (counted with your live keys’ requests).
            </p>
            <ul className="grid list-disc gap-1.5 pl-5">
              <li>
                <strong className="font-semibold text-zinc-900">401</strong>{' '}
                <Code>invalid_api_key</Code>: no key, a malformed or unknown key, or a revoked key.
                Revoking a key in your profile takes effect on its next request.
              </li>
              <li>
                <strong className="font-semibold text-zinc-900">403</strong>{' '}
                <Code>plan_required</Code>: the account is no longer on Business or Enterprise. Its
                keys are kept and work again after upgrading.
              </li>
            </ul>
          </Section>

          <Section id="rate-limits" title="Rate Limits">
            <p>
              Each key may make a number of requests per minute (see <Code>rate_limit</Code> in{' '}
              <Code>GET /usage</Code>; Enterprise limits are set per contract). Every response
              carries <Code>RateLimit-Limit</Code>, <Code>RateLimit-Remaining</Code> and{' '}
              <Code>RateLimit-Reset</Code> (seconds); past the limit the answer is{' '}
              <strong className="font-semibold text-zinc-900">429</strong> <Code>rate_limited</Code>{' '}
              with <Code>Retry-After</Code>.
            </p>
            <p>
              Validations count against your plan’s monthly allowance, shared with the dashboard:{' '}
              {formatCount(business.monthlyValidations ?? 0)} a month on Business, unlimited on
              Enterprise. When it is used up, validations get{' '}
              <strong className="font-semibold text-zinc-900">429</strong>{' '}
              <Code>monthly_limit</Code> with <Code>Retry-After</Code> and the{' '}
              <Code>reset_date</Code> (the 1st of next month, UTC).
            </p>
            <p>
              Send an <Code>Idempotency-Key</Code> header (a UUID) with any POST to retry it safely:
              the same key and request within 24 hours returns the first response instead of running
              again; the same key with a different request gets{' '}
              <Code>422 idempotency_mismatch</Code>.
            </p>
            <Endpoint sample={s('getUsage')} />
          </Section>

          <Section id="schemas" title="Schemas">
            <p>
              A schema lists the columns (CSV) or properties (JSON) of your files: each with a{' '}
              <Code>name</Code>, a <Code>type</Code> (string, integer, number, boolean, date, email,
              url, enum) and <Code>required</Code>, plus rules such as <Code>minLength</Code>,{' '}
              <Code>maxLength</Code>, <Code>minValue</Code>, <Code>maxValue</Code>,{' '}
              <Code>precision</Code>, <Code>pattern</Code>, <Code>format</Code> and{' '}
              <Code>values</Code>. JSON Schema and Table Schema documents are accepted as well.
              Every schema is checked before it is stored; a refused one gets{' '}
              <Code>400 invalid_schema</Code> with each problem by path (for example{' '}
              <Code>rules.columns[2].pattern</Code>).
            </p>
            <p>
              Lists are newest first (by creation time, then id), {LIST_LIMIT_DEFAULT} per page by
              default and {LIST_LIMIT_MAX} at most, with <Code>total</Code> and{' '}
              <Code>has_more</Code>. Page with <Code>starting_after</Code>, the id of the last item
              you have (<Code>?limit=100&amp;starting_after=…</Code>, as Stripe does): an item
              created while you page is then neither repeated nor skipped. <Code>page</Code> numbers
              work too, but shift when items are added.
            </p>
            <Endpoint sample={s('createSchema')} />
            <Endpoint sample={s('listSchemas')} />
            <Endpoint sample={s('getSchema')} />
            <Endpoint sample={s('replaceSchema')} />
            <Endpoint sample={s('deleteSchema')} />
          </Section>

          <Section id="validation" title="Validation">
            <p>
              <Code>POST /validate</Code> checks a file of up to {formatBytes(SYNC_MAX_BYTES)} and{' '}
              {formatCount(SYNC_MAX_ROWS)} rows and answers with the result: <Code>valid</Code>,{' '}
              <Code>error_count</Code>, the first {SAMPLE_ERRORS} <Code>sample_errors</Code> (row,
              column, code, message, value), <Code>stats</Code> and a <Code>report_id</Code>. A file
              with errors is a normal 200 result. A larger file gets <Code>413 sync_limit</Code>:
              send it as an asynchronous job instead. Use a saved schema with{' '}
              <Code>?schema_id=</Code>, or send the schema as JSON text in a <Code>schema</Code>{' '}
              form field.
            </p>
            <p>
              The full report lists every error: as CSV (safe to open in a spreadsheet), or with{' '}
              <Code>?format=json</Code> as JSON. Reports are kept for 90 days.
            </p>
            <Endpoint sample={s('validateFile')} />
            <Endpoint sample={s('getReport')} />
          </Section>

          <Section id="webhooks" title="Jobs and webhooks">
            <WebhooksSection />
            <Endpoint sample={s('createJob')}>
              <p>
                Sends <Code>products.csv</Code> as a job and prints its <Code>job_id</Code>. Any
                file up to your plan’s size limit is accepted.
              </p>
            </Endpoint>
            <Endpoint sample={s('getJob')}>
              <p>
                With <Code>JOB_ID</Code> set, asks every 2 seconds until the job has ended (the
                answer’s <Code>Retry-After</Code> says the same), then prints the result.
              </p>
            </Endpoint>
            <Endpoint sample={s('createWebhook')}>
              <p>
                With <Code>WEBHOOK_URL</Code> set to your receiver’s https URL, registers it for
                both events and prints the webhook’s id and signing secret.
              </p>
            </Endpoint>
          </Section>

          <Section id="errors" title="Errors">
            <p>
              Every error has the same shape, <Code>{'{"error": "…", "code": "…"}'}</Code>: a
              sentence that says what to fix and a stable code, plus <Code>request_id</Code>. Some
              add details (<Code>problems</Code>, <Code>issues</Code>, <Code>limit</Code>,{' '}
              <Code>reset_date</Code>
              ). Within v1 changes are additive only.
            </p>
            <p>
              Every response carries an <Code>X-Request-Id</Code> header, and every error body the
              same id as <Code>request_id</Code>: quote it when you contact support. Send your own{' '}
              <Code>X-Request-Id</Code> (for example your pipeline’s trace id; letters, digits and{' '}
              <Code>._:=+/@-</Code>, up to 128 characters) and it is used instead, so our logs and
              yours share one id.
            </p>
            <dl
              data-testid="error-codes"
              className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white text-[13px]"
            >
              {errorCodes().map((e) => (
                <div
                  key={e.code}
                  className="grid gap-1 px-3 py-2 sm:grid-cols-[14rem_1fr] sm:gap-4"
                >
                  <dt className="break-words font-mono text-zinc-900">
                    <span className="text-zinc-600">{e.status}</span> {e.code}
                  </dt>
                  <dd>
                    <Inline text={e.description} />
                  </dd>
                </div>
              ))}
            </dl>
          </Section>

          <Section id="client" title="TypeScript client">
            <ClientSection apiBase={base} />
          </Section>

          <Section id="reference" title="Endpoint reference">
            <p>
              Every endpoint with its parameters, request body and responses is on{' '}
              <a
                href={paths.apiReference}
                className="font-medium text-indigo-700 underline underline-offset-2"
              >
                the endpoint reference
              </a>
              , generated from the{' '}
              <a
                href="/api/v1/openapi.json"
                className="font-medium text-indigo-700 underline underline-offset-2"
              >
                OpenAPI 3.1 document
              </a>
              , which you can load into your own tools.
            </p>
            <ul aria-label="Endpoints" className="grid gap-x-6 gap-y-1 md:grid-cols-2">
              {operations().map(({ method, path, op }) => (
                <li key={`${method} ${path}`}>
                  <a href={`${paths.apiReference}#${operationId(op)}`} className="ref-link">
                    <span className={`ref-method ref-${method.toLowerCase()}`}>{method}</span>
                    <code className="break-all font-mono">{path}</code>
                    <span className="text-zinc-600">{String(op.summary)}</span>
                  </a>
                </li>
              ))}
            </ul>
          </Section>

          <ActionLinks
            action={{ label: 'Upgrade Plan', to: paths.profile }}
            secondary={{ label: 'Try in UI', to: paths.dashboard }}
            className="border-t border-zinc-200 pt-8"
          />
        </div>
      </div>
    </div>
  );
}
