import { Braces, FileJson, ListTree, Route } from 'lucide-react';
import { Link } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { ActionLinks } from '@/components/ui/action-links';
import { paths } from '@/config/paths';
import { BeforeAfter } from '@/features/marketing/components/before-after';
import { CodeBlock } from '@/features/marketing/components/code-block';
import { CtaSection } from '@/features/marketing/components/cta-section';
import { FaqSection } from '@/features/marketing/components/faq-section';
import { CardGrid, PageHero, Section } from '@/features/marketing/components/page-sections';
import { exampleJsonSchema, jsonGuideExamples } from '@/features/marketing/content/engine-examples';
import { jsonSchemaFaqs } from '@/features/marketing/content/faqs';
import { HOME_CRUMB, useMarketingMeta } from '@/features/marketing/lib/use-marketing-meta';

const crumbs = [HOME_CRUMB, { label: 'JSON Schema Validator', path: paths.jsonSchemaValidator }];

const points = [
  {
    icon: <FileJson />,
    title: 'Bring your JSON Schema',
    text: 'Import it and it becomes an editable schema: types, required, enums, ranges, lengths, patterns and formats.',
  },
  {
    icon: <ListTree />,
    title: 'Every record, every error',
    text: 'Not just the first failure: each record of an array or NDJSON file is checked and every problem listed.',
  },
  {
    icon: <Route />,
    title: 'Errors by JSON path',
    text: 'Each error names its record and path, such as $[41].address.postcode, with the value found.',
  },
  {
    icon: <Braces />,
    title: 'Honest about gaps',
    text: 'A keyword that cannot be applied, such as an array’s items, is named in a warning instead of silently passing.',
  },
];

export function JsonSchemaValidatorRoute() {
  useMarketingMeta({
    title: 'JSON Schema Validator: Check JSON Files and NDJSON Against a Schema',
    description:
      'Validate JSON arrays, NDJSON and config files against a JSON Schema or a schema built in a form. Every error by record and JSON path, with plain-English messages.',
    keywords: [
      'JSON schema validator',
      'validate JSON against schema',
      'NDJSON validation',
      'JSON schema online',
      'JSON data validation',
    ],
    path: paths.jsonSchemaValidator,
    crumbs,
    faqs: jsonSchemaFaqs,
  });

  return (
    <SiteLayout>
      <PageHero
        crumbs={crumbs}
        eyebrow="JSON schema validation"
        title="Validate JSON data against your JSON Schema"
        lead="Check API exports, NDJSON logs and config files record by record. Import the JSON Schema you already have, or build one in a form, and see every missing property, wrong type and bad format by path."
      >
        <ActionLinks
          action={{ label: 'Create a free account', to: paths.auth }}
          secondary={{ label: 'Try it in your browser', to: paths.jsonValidator }}
        />
      </PageHero>

      <Section title="Why validate JSON data with SchemaCheck" tinted>
        <CardGrid items={points} columns={2} />
      </Section>

      <Section
        title="A JSON Schema it reads"
        intro="Import a schema like this one in the schema builder; required, types, the enum, the minimum, the formats and additionalProperties all carry over."
      >
        <CodeBlock code={exampleJsonSchema} title="users.schema.json" copy />
      </Section>

      <Section
        title="An extra property, caught"
        intro="With additionalProperties set to false, a property the schema does not list is reported with its path."
        tinted
      >
        <BeforeAfter example={jsonGuideExamples.additional} />
      </Section>

      <Section title="Where to go next">
        <ul className="grid gap-3 text-[15px] text-zinc-700">
          <li>
            <Link
              to={paths.jsonValidationErrors}
              className="font-medium text-indigo-700 hover:underline"
            >
              Fix JSON validation errors
            </Link>{' '}
            — parse errors, wrong types, missing required fields and additional properties.
          </li>
          <li>
            <Link
              to={`${paths.templates}#json`}
              className="font-medium text-indigo-700 hover:underline"
            >
              JSON templates
            </Link>{' '}
            — user API responses, app configs and orders, with sample files.
          </li>
          <li>
            <Link to={paths.validationApi} className="font-medium text-indigo-700 hover:underline">
              Validation API
            </Link>{' '}
            — the same checks from your pipeline.
          </li>
        </ul>
      </Section>

      <FaqSection faqs={jsonSchemaFaqs} />

      <CtaSection
        heading="Check your next JSON export in minutes"
        text="Create a free account: no credit card, and your files are never stored."
        action={{ label: 'Get Started Free', to: paths.auth }}
        secondary={{ label: 'JSON validator', to: paths.jsonValidator }}
      />
    </SiteLayout>
  );
}
