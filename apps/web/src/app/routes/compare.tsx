import { PLANS } from '@schemacheck/contracts';
import { Link } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { paths } from '@/config/paths';
import { CtaSection } from '@/features/marketing/components/cta-section';
import { FaqSection } from '@/features/marketing/components/faq-section';
import { PageHero, Section } from '@/features/marketing/components/page-sections';
import { ScrollTable } from '@/features/marketing/components/scroll-table';
import { compareFaqs } from '@/features/marketing/content/faqs';
import { priceText } from '@/features/marketing/lib/plan-copy';
import { HOME_CRUMB, useMarketingMeta } from '@/features/marketing/lib/use-marketing-meta';

const crumbs = [HOME_CRUMB, { label: 'Compare', path: paths.compare }];

/** The day the other tools' public documentation was read for this table. */
const CHECKED_ON = '24 November 2026';

interface Tool {
  name: string;
  kind: string;
  use: string;
  schema: string;
  formats: string;
  cost: string;
  source?: { label: string; href: string };
}

const tools: Tool[] = [
  {
    name: 'SchemaCheck',
    kind: 'Hosted validation service',
    use: 'Web workspace, in-browser validators (nothing uploaded), REST API with webhooks on Business and Enterprise',
    schema:
      'Built in a form or inferred from a file; imports JSON Schema and Frictionless Table Schema',
    formats: 'CSV; JSON arrays, single objects and NDJSON',
    cost: `Free plan; paid plans from ${priceText(PLANS.pro)}/month`,
  },
  {
    name: 'Frictionless Framework',
    kind: 'Open-source Python framework to describe, extract, validate and transform tabular data',
    use: 'Python library and command-line interface',
    schema: 'Frictionless Table Schema',
    formats: 'Tabular data in CSV, Excel, JSON, SQL and other formats',
    cost: 'Free, open source',
    source: {
      label: 'frictionlessdata/frictionless-py',
      href: 'https://github.com/frictionlessdata/frictionless-py',
    },
  },
  {
    name: 'CSVLint',
    kind: 'Open-source Ruby gem that checks the syntax and contents of CSV files',
    use: 'Ruby library or standalone command-line application',
    schema: 'JSON Table Schema and CSV on the Web (CSVW)',
    formats: 'CSV and other delimiter-separated files; CSV dialects',
    cost: 'Free, open source',
    source: { label: 'csvlint on RubyDoc', href: 'https://rubydoc.info/gems/csvlint' },
  },
  {
    name: 'qsv',
    kind: 'Open-source command-line toolkit for CSV data',
    use: 'The validate command in a terminal or script',
    schema:
      'JSON Schema (2020-12) applied to CSV rows; without a schema, checks RFC 4180 and UTF-8',
    formats: 'CSV',
    cost: 'Free, open source',
    source: {
      label: 'qsv wiki: Validation and Schema',
      href: 'https://github.com/dathere/qsv/wiki/Validation-and-Schema',
    },
  },
  {
    name: 'Flatfile',
    kind: 'Commercial data import platform',
    use: 'Importer embedded in your own application through its SDKs; validation in data hooks and listeners you write',
    schema: 'Configured in code in Flatfile',
    formats: 'Files your application’s users upload',
    cost: 'Commercial; see vendor',
    source: {
      label: 'Flatfile docs: Embedding',
      href: 'https://flatfile.com/docs/embedding/overview',
    },
  },
  {
    name: 'OneSchema',
    kind: 'Commercial embeddable CSV importer',
    use: 'Importer embedded in your application (JavaScript and React packages); validation webhooks and code hooks',
    schema: 'Templates configured in OneSchema',
    formats: 'CSV files your application’s users upload',
    cost: 'Commercial; see vendor',
    source: { label: 'OneSchema docs: React', href: 'https://docs.oneschema.co/docs/react' },
  },
  {
    name: 'CSVBox',
    kind: 'Commercial embeddable spreadsheet importer',
    use: 'Import button added to your application with a code snippet; validations set in its dashboard',
    schema: 'Sheet templates configured in CSVBox',
    formats: 'Spreadsheets your application’s users upload',
    cost: 'Commercial; see vendor',
    source: {
      label: 'CSVBox help: Install Code',
      href: 'https://help.csvbox.io/getting-started/2.-install-code',
    },
  },
];

const columns: { key: keyof Omit<Tool, 'name' | 'source'>; label: string }[] = [
  { key: 'kind', label: 'What it is' },
  { key: 'use', label: 'How you use it' },
  { key: 'schema', label: 'Schema' },
  { key: 'formats', label: 'Files it validates' },
  { key: 'cost', label: 'Cost' },
];

const choose = [
  {
    title: 'Choose SchemaCheck',
    text: 'when people who are not developers need to check files themselves, when you want the same checks in a browser, a workspace and an API, or when files must not leave the device.',
  },
  {
    title: 'Choose an open-source library or CLI',
    text: 'when your team writes Python, Ruby or shell scripts and wants validation inside its own code, at no cost.',
  },
  {
    title: 'Choose an embeddable importer',
    text: 'when your product needs an upload screen for your customers’ spreadsheets, with mapping and correction inside your app.',
  },
];

export function CompareRoute() {
  useMarketingMeta({
    title: 'SchemaCheck Compared: Frictionless, CSVLint, qsv, Flatfile, OneSchema, CSVBox',
    description:
      'A factual comparison of CSV and JSON validation tools: what each is, how you use it, which schemas and files it handles and what it costs, from each tool’s public documentation.',
    keywords: [
      'CSV validator comparison',
      'Flatfile alternative',
      'OneSchema alternative',
      'CSVBox alternative',
      'Frictionless validate',
      'qsv validate',
      'CSVLint',
    ],
    path: paths.compare,
    crumbs,
    faqs: compareFaqs,
  });

  return (
    <SiteLayout>
      <PageHero
        crumbs={crumbs}
        eyebrow="Compare"
        title="How SchemaCheck compares with other validation tools"
        lead="Validation tools fall into three groups: open-source libraries and command-line tools, importers you embed in your own product, and hosted services you use directly. Here is what each tool does, as its own documentation describes it."
      />

      <Section
        title="Feature comparison"
        intro={
          <>
            Other tools as documented on {CHECKED_ON}. Each row links to the page it was taken from;
            products change, so check the latest documentation before you decide.
          </>
        }
        tinted
      >
        <ScrollTable
          label="Comparison of validation tools"
          minWidth="min-w-[980px]"
          columns={[{ key: 'tool', label: 'Tool' }, ...columns]}
          bodyClassName="align-top"
        >
          {tools.map((tool) => (
            <tr key={tool.name} className={tool.source ? undefined : 'bg-indigo-50/40'}>
              <th scope="row" className="px-4 py-3 font-semibold text-zinc-900">
                {tool.name}
                {tool.source ? (
                  <a
                    href={tool.source.href}
                    rel="noopener noreferrer"
                    className="mt-1 block text-xs font-normal text-indigo-700 underline"
                  >
                    Source: {tool.source.label}
                  </a>
                ) : null}
              </th>
              {columns.map((column) => (
                <td key={column.key} className="px-4 py-3 text-zinc-700">
                  {tool[column.key]}
                </td>
              ))}
            </tr>
          ))}
        </ScrollTable>
      </Section>

      <Section title="Which kind of tool do you need?">
        <ul className="grid gap-6 md:grid-cols-3">
          {choose.map((item) => (
            <li
              key={item.title}
              className="rounded-xl border border-zinc-200 bg-white p-6 shadow-xs"
            >
              <h3 className="text-base font-semibold text-zinc-900">{item.title}</h3>
              <p className="mt-2 text-sm leading-6 text-zinc-600">{item.text}</p>
            </li>
          ))}
        </ul>
        <p className="mt-8 text-[15px] text-zinc-700">
          Already have a Table Schema or JSON Schema? See the{' '}
          <Link
            to={paths.csvSchemaValidator}
            className="font-medium text-indigo-700 hover:underline"
          >
            CSV schema validator
          </Link>{' '}
          and the{' '}
          <Link
            to={paths.jsonSchemaValidator}
            className="font-medium text-indigo-700 hover:underline"
          >
            JSON schema validator
          </Link>
          .
        </p>
      </Section>

      <FaqSection faqs={compareFaqs} />

      <CtaSection
        heading="Try SchemaCheck on your own file"
        text="The in-browser validators need no account; a free account adds the workspace."
        action={{ label: 'Get Started Free', to: paths.auth }}
        secondary={{ label: 'CSV validator', to: paths.csvValidator }}
      />
    </SiteLayout>
  );
}
