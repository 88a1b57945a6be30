import {
  ArrowRight,
  Columns3,
  FileCheck2,
  ListOrdered,
  Rows3,
  ShieldCheck,
  Upload,
} from 'lucide-react';

import { SiteLayout } from '@/components/layouts/site-layout';
import { ActionLinks } from '@/components/ui/action-links';
import { paths } from '@/config/paths';
import { BeforeAfter } from '@/features/marketing/components/before-after';
import { CodeBlock } from '@/features/marketing/components/code-block';
import { CtaSection } from '@/features/marketing/components/cta-section';
import { FaqSection } from '@/features/marketing/components/faq-section';
import { CardGrid, PageHero, Section } from '@/features/marketing/components/page-sections';
import { RuleTable } from '@/features/marketing/components/rule-table';
import { SchemaFields } from '@/features/marketing/components/schema-fields';
import { csvGuideExamples } from '@/features/marketing/content/engine-examples';
import { csvSchemaFaqs } from '@/features/marketing/content/faqs';
import { findTemplate } from '@/features/marketing/content/templates';
import { schemaJson } from '@/features/marketing/lib/schema-summary';
import { HOME_CRUMB, useMarketingMeta } from '@/features/marketing/lib/use-marketing-meta';

const crumbs = [HOME_CRUMB, { label: 'CSV Schema Validator', path: paths.csvSchemaValidator }];
const productFeed = findTemplate('product-feed');

const structure = [
  {
    icon: <Columns3 />,
    title: 'Exact headers',
    text: 'Each schema column must appear in the header with exactly its name; missing columns are named.',
  },
  {
    icon: <ListOrdered />,
    title: 'Column order, if you need it',
    text: 'Turn on “order matters” and a column in the wrong place is reported with where it belongs.',
  },
  {
    icon: <ShieldCheck />,
    title: 'No surprise columns',
    text: 'Switch off additional columns and every column the schema does not list is reported.',
  },
  {
    icon: <Rows3 />,
    title: 'Row shape',
    text: 'A row with more or fewer cells than the header is reported with its row number.',
  },
];

const ways = [
  {
    icon: <FileCheck2 />,
    title: 'Build it in a form',
    text: 'Add fields, pick types and rules; or infer a first draft from your file’s first rows.',
  },
  {
    icon: <Upload />,
    title: 'Import what you have',
    text: 'Frictionless Table Schema and JSON Schema files become editable SchemaCheck schemas.',
  },
  {
    icon: <ArrowRight />,
    title: 'Start from a template',
    text: 'Product feeds, transactions, contacts, events and shipments are ready to copy.',
  },
];

export function CsvSchemaValidatorRoute() {
  useMarketingMeta({
    title: 'CSV Schema Validator: Validate CSV Files Against Column Rules',
    description:
      'Define a CSV schema with column names, types and rules, or import a Table Schema, then validate every row and see each error by row and column. Free plan, no card.',
    keywords: [
      'CSV schema validator',
      'CSV schema',
      'validate CSV against schema',
      'Table Schema validator',
      'CSV column validation',
    ],
    path: paths.csvSchemaValidator,
    crumbs,
    faqs: csvSchemaFaqs,
  });

  return (
    <SiteLayout>
      <PageHero
        crumbs={crumbs}
        eyebrow="CSV schema validation"
        title="Validate CSV files against a schema you define once"
        lead="Describe the columns a CSV file must have and the rules each value must follow. SchemaCheck checks the header, then every row, and lists each problem with its row, column, value and a message anyone can act on."
      >
        <ActionLinks
          action={{ label: 'Create a free account', to: paths.auth }}
          secondary={{ label: 'Try it in your browser', to: paths.csvValidator }}
        />
      </PageHero>

      <Section
        title="What a CSV schema looks like"
        intro="The product feed template: five columns, each with a type and the rules a shop import needs."
        tinted
      >
        {productFeed ? (
          <div className="grid min-w-0 gap-6 lg:grid-cols-2">
            <SchemaFields schema={productFeed.schema} />
            <CodeBlock
              code={schemaJson(productFeed.schema)}
              title="product-feed.schema.json"
              copy
            />
          </div>
        ) : null}
      </Section>

      <Section title="Structure first: headers and rows">
        <CardGrid items={structure} columns={2} />
      </Section>

      <Section
        title="Then every value"
        intro="Types and rules you can give a column, with a value each one rejects and the validator’s message."
        tinted
      >
        <RuleTable />
      </Section>

      <Section
        title="A header that does not match"
        intro="The most common reason a CSV import fails, and what the validator says about it."
      >
        <BeforeAfter example={csvGuideExamples.headers} />
      </Section>

      <Section title="Three ways to get a schema" tinted>
        <CardGrid items={ways} />
      </Section>

      <FaqSection faqs={csvSchemaFaqs} />

      <CtaSection
        heading="Write your CSV schema once"
        text="Create a free account to validate files in the workspace; save schemas for reuse on paid plans."
        action={{ label: 'Get Started Free', to: paths.auth }}
        secondary={{ label: 'See templates', to: `${paths.templates}#csv` }}
      />
    </SiteLayout>
  );
}
