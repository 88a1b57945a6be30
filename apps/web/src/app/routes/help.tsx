import { BookOpen, FileWarning, LifeBuoy, Search } from 'lucide-react';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { buttonVariants } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { paths } from '@/config/paths';
import { SUPPORT_EMAIL } from '@/config/site';
import { FaqSection } from '@/features/marketing/components/faq-section';
import { PageHero, Section } from '@/features/marketing/components/page-sections';
import { helpFaqs } from '@/features/marketing/content/faqs';
import { HOME_CRUMB, useMarketingMeta } from '@/features/marketing/lib/use-marketing-meta';
import { plural } from '@/lib/format';

const crumbs = [HOME_CRUMB, { label: 'Help Center', path: paths.help }];

const cardClass = 'flex min-w-0 flex-col rounded-2xl border border-zinc-200 bg-white p-6 shadow-xs';

/** Case-insensitive match of every word of the query in the question or the answer. */
function matches(query: string, text: string): boolean {
  const haystack = text.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

export function HelpRoute() {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const searchId = useId();
  const shown = query
    ? helpFaqs.filter((faq) => matches(query, `${faq.question} ${faq.answer}`))
    : helpFaqs;

  useMarketingMeta({
    title: 'Help Center',
    description:
      'Answers about creating schemas, file formats, plan limits, the API, cancelling a subscription and deleting your account, plus API documentation and support contacts.',
    keywords: ['SchemaCheck help', 'CSV validator help', 'schema validation FAQ', 'API support'],
    path: paths.help,
    crumbs,
    faqs: helpFaqs,
  });

  return (
    <SiteLayout>
      <PageHero
        crumbs={crumbs}
        eyebrow="Support"
        title="Help Center"
        lead="Find answers about schemas, file formats, plans, the API and your account, or get in touch with our support team."
      >
        <form
          role="search"
          className="flex max-w-xl gap-2"
          onSubmit={(event) => event.preventDefault()}
        >
          <label htmlFor={searchId} className="sr-only">
            Search the help center
          </label>
          <div className="relative flex-1">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-zinc-500"
            />
            <Input
              id={searchId}
              type="search"
              value={query}
              placeholder="Search questions, e.g. delete account"
              className="pl-9"
              onChange={(event) => {
                const q = event.target.value;
                setParams(q ? { q } : {}, { replace: true });
              }}
            />
          </div>
        </form>
        {/* The matches show here, under the box the user is typing in, not in the FAQ below the
            fold; the status line is always in the page so that screen readers hear each count. */}
        <div className="mt-4 max-w-xl">
          <p role="status" className="text-sm text-zinc-700" data-testid="help-search-status">
            {query
              ? shown.length
                ? `${plural(shown.length, 'question')} ${shown.length === 1 ? 'matches' : 'match'} “${query}”`
                : `No question matches “${query}”.`
              : ''}
          </p>
          {query && shown.length === 0 ? (
            <p className="mt-1 text-sm text-zinc-600">
              Try other words, or{' '}
              <a
                href={`mailto:${SUPPORT_EMAIL}`}
                className="font-medium text-indigo-700 underline underline-offset-2"
              >
                email support
              </a>
              .
            </p>
          ) : null}
          {query && shown.length > 0 ? (
            <ul aria-label="Matching questions" className="mt-3 grid gap-3">
              {shown.map((faq) => (
                <li
                  key={faq.question}
                  className="rounded-xl border border-zinc-200 bg-white p-4 shadow-xs"
                >
                  <h2 className="text-base font-semibold text-zinc-900">{faq.question}</h2>
                  <p className="mt-1.5 text-sm leading-6 text-zinc-600">{faq.answer}</p>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </PageHero>

      <Section title="Get help" tinted>
        <ul className="grid gap-6 md:grid-cols-3">
          <li className={cardClass}>
            <BookOpen aria-hidden="true" className="size-6 text-indigo-600" />
            <h3 className="mt-4 text-base font-semibold text-zinc-900">API documentation</h3>
            <p className="mt-2 flex-1 text-sm leading-6 text-zinc-600">
              Authentication, rate limits, schemas, file validation and webhooks, with examples in
              cURL, Python and JavaScript.
            </p>
            <Link
              to={paths.apiDocs}
              className={buttonVariants({ variant: 'outline', className: 'mt-5 self-start' })}
            >
              View Documentation
            </Link>
          </li>
          <li className={cardClass}>
            <LifeBuoy aria-hidden="true" className="size-6 text-indigo-600" />
            <h3 className="mt-4 text-base font-semibold text-zinc-900">Contact support</h3>
            <p className="mt-2 flex-1 text-sm leading-6 text-zinc-600">
              Email us with your username and what you were doing. Business customers get a reply
              within 48 hours.
            </p>
            <a
              href={`mailto:${SUPPORT_EMAIL}`}
              className={buttonVariants({ className: 'mt-5 self-start' })}
            >
              Contact Support
            </a>
          </li>
          <li className={cardClass}>
            <FileWarning aria-hidden="true" className="size-6 text-indigo-600" />
            <h3 className="mt-4 text-base font-semibold text-zinc-900">Fix a failing file</h3>
            <p className="mt-2 flex-1 text-sm leading-6 text-zinc-600">
              Step-by-step guides to the most common problems, with real examples.
            </p>
            <div className="mt-5 flex flex-col gap-2 text-sm">
              <Link
                to={paths.csvUploadErrors}
                className="font-medium text-indigo-700 hover:underline"
              >
                Fix CSV upload errors
              </Link>
              <Link
                to={paths.jsonValidationErrors}
                className="font-medium text-indigo-700 hover:underline"
              >
                Fix JSON validation errors
              </Link>
            </div>
          </li>
        </ul>
      </Section>

      <FaqSection faqs={helpFaqs} />
    </SiteLayout>
  );
}
