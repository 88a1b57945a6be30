import { Download, FileJson, FileSpreadsheet, Play } from 'lucide-react';
import { Link } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { CodeBlock } from '@/features/marketing/components/code-block';
import { CopyButton } from '@/components/ui/copy-button';
import { CtaSection } from '@/features/marketing/components/cta-section';
import { FaqSection } from '@/features/marketing/components/faq-section';
import { IssueList } from '@/features/marketing/components/issue-list';
import { PageHero, Section } from '@/features/marketing/components/page-sections';
import { SchemaFields } from '@/features/marketing/components/schema-fields';
import { templateFaqs } from '@/features/marketing/content/faqs';
import { schemaTemplates, type SchemaTemplate } from '@/features/marketing/content/templates';
import { schemaJson } from '@/features/marketing/lib/schema-summary';
import { HOME_CRUMB, useMarketingMeta } from '@/features/marketing/lib/use-marketing-meta';

const crumbs = [HOME_CRUMB, { label: 'Templates', path: paths.templates }];

function TemplateCard({ template }: { template: SchemaTemplate }) {
  const fileType = template.schema.fileType;
  const validator = fileType === 'csv' ? paths.csvValidator : paths.jsonValidator;
  const json = schemaJson(template.schema);
  const headingId = `${template.id}-title`;
  return (
    <li
      id={template.id}
      tabIndex={-1}
      aria-labelledby={headingId}
      className="flex min-w-0 scroll-mt-20 flex-col gap-5 rounded-2xl border border-zinc-200 bg-white p-5 shadow-xs focus:outline-none sm:p-6"
      data-testid={`template-${template.id}`}
    >
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600"
        >
          {fileType === 'csv' ? (
            <FileSpreadsheet className="size-5" />
          ) : (
            <FileJson className="size-5" />
          )}
        </span>
        <div className="min-w-0">
          <h3 id={headingId} className="text-lg font-semibold text-zinc-900">
            {template.title}
          </h3>
          <p className="text-sm text-zinc-600">
            {template.audience} · {fileType.toUpperCase()} · {template.schema.fields.length} fields
          </p>
        </div>
      </div>
      <p className="text-sm leading-6 text-zinc-700">{template.summary}</p>
      <SchemaFields schema={template.schema} />
      <details className="group min-w-0 rounded-lg border border-zinc-200">
        <summary className="cursor-pointer rounded-lg px-3 py-2 text-sm font-medium text-zinc-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
          Schema JSON (import it in the schema builder)
        </summary>
        <CodeBlock code={json} className="m-3 mt-1" />
      </details>
      <div className="min-w-0">
        <p className="mb-2 text-sm font-medium text-zinc-900">
          The sample file’s deliberate mistakes, as the validator reports them
        </p>
        <IssueList issues={template.sampleErrors} fileType={fileType} />
      </div>
      <div className="mt-auto flex flex-wrap gap-2 pt-1">
        <Link
          to={`${validator}?template=${template.id}`}
          className={buttonVariants({ size: 'sm' })}
          aria-label={`Use this template: ${template.title}`}
        >
          <Play aria-hidden="true" />
          Use this template
        </Link>
        <CopyButton text={json} label="Copy schema" />
        <a
          href={template.sampleUrl}
          download
          className={buttonVariants({ variant: 'ghost', size: 'sm' })}
          aria-label={`Download sample file for ${template.title}`}
        >
          <Download aria-hidden="true" />
          Sample file
        </a>
      </div>
    </li>
  );
}

export function TemplatesRoute() {
  useMarketingMeta({
    title: 'CSV and JSON Schema Templates',
    description:
      'Eight free, copyable validation schemas for product feeds, transactions, contacts, events, shipments, user APIs, app configs and orders, each with a sample file to try.',
    keywords: [
      'CSV schema template',
      'JSON schema template',
      'product feed validation',
      'CSV validation rules',
      'data validation templates',
    ],
    path: paths.templates,
    crumbs,
    faqs: templateFaqs,
  });

  const csv = schemaTemplates.filter((t) => t.schema.fileType === 'csv');
  const json = schemaTemplates.filter((t) => t.schema.fileType === 'json');

  return (
    <SiteLayout>
      <PageHero
        crumbs={crumbs}
        eyebrow="Templates"
        title="Schema templates for common data files"
        lead="Eight ready-made schemas with the rules each kind of file usually needs. Copy one, or open it in the validator with a small sample file to see a real report in seconds."
      >
        <nav aria-label="Template types" className="flex flex-wrap gap-3">
          <a href="#csv" className={buttonVariants({ variant: 'outline' })}>
            <FileSpreadsheet aria-hidden="true" />
            {csv.length} CSV templates
          </a>
          <a href="#json" className={buttonVariants({ variant: 'outline' })}>
            <FileJson aria-hidden="true" />
            {json.length} JSON templates
          </a>
        </nav>
      </PageHero>

      <Section
        id="csv"
        title="CSV templates"
        intro="For spreadsheets and exports: the header row is checked against the field names, then every row against the rules."
        tinted
      >
        <ul className="grid gap-6 lg:grid-cols-2">
          {csv.map((template) => (
            <TemplateCard key={template.id} template={template} />
          ))}
        </ul>
      </Section>

      <Section
        id="json"
        title="JSON templates"
        intro="For API responses, config files and NDJSON exports: properties are checked by path, nested objects with dotted names."
        tinted
      >
        <ul className="grid gap-6 lg:grid-cols-2">
          {json.map((template) => (
            <TemplateCard key={template.id} template={template} />
          ))}
        </ul>
      </Section>

      <FaqSection faqs={templateFaqs} />

      <CtaSection
        heading="Save your own version of a template"
        text="Paid plans keep your schemas, so next month’s file is checked with one click."
        action={{ label: 'Create a free account', to: paths.auth }}
        secondary={{ label: 'See plans', to: paths.buyingGuide }}
      />
    </SiteLayout>
  );
}
