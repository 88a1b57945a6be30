import { PLANS } from '@schemacheck/contracts';
import { Bell, KeyRound, Layers, Timer } from 'lucide-react';
import { Link } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { ActionLinks } from '@/components/ui/action-links';
import { paths } from '@/config/paths';
import { CodeBlock } from '@/features/marketing/components/code-block';
import { CtaSection } from '@/features/marketing/components/cta-section';
import { FaqSection } from '@/features/marketing/components/faq-section';
import { CardGrid, PageHero, Section } from '@/features/marketing/components/page-sections';
import { validationApiFaqs } from '@/features/marketing/content/faqs';
import { priceText, validationsText } from '@/features/marketing/lib/plan-copy';
import { HOME_CRUMB, useMarketingMeta } from '@/features/marketing/lib/use-marketing-meta';

const crumbs = [HOME_CRUMB, { label: 'Validation API', path: paths.validationApi }];
const { business } = PLANS;

const createSchema = `curl -X POST "$SCHEMACHECK_URL/api/v1/schemas" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{
    "name": "Product feed",
    "type": "csv",
    "rules": {
      "columns": [
        { "name": "sku", "type": "string", "required": true },
        { "name": "price", "type": "number", "required": true, "minValue": 0 }
      ]
    }
  }'`;

const validateFile = `curl -X POST "$SCHEMACHECK_URL/api/v1/validate?schema_id=$SCHEMA_ID" \\
  -H "Authorization: Bearer $SCHEMACHECK_API_KEY" \\
  -F "file=@products.csv"`;

const features = [
  {
    icon: <KeyRound />,
    title: 'API keys',
    text: 'Create keys on your Profile page. They start with sc_, are shown once and can be revoked at any time.',
  },
  {
    icon: <Layers />,
    title: 'Schemas as resources',
    text: 'Create and list schemas through the API and validate against them by id, the same schemas the web app uses.',
  },
  {
    icon: <Timer />,
    title: 'Synchronous or as a job',
    text: 'Files up to 5 MB and 50,000 rows are answered in the request; larger files run as jobs you can poll.',
  },
  {
    icon: <Bell />,
    title: 'Webhooks',
    text: 'Get a signed request when a validation finishes, so your pipeline reacts instead of polling.',
  },
];

export function ValidationApiRoute() {
  useMarketingMeta({
    title: 'CSV and JSON Validation API for Data Pipelines',
    description:
      'A REST API that validates CSV and JSON files against your schemas: API keys, synchronous checks and jobs for large files, webhooks, and every error by row and column.',
    keywords: [
      'validation API',
      'CSV validation API',
      'JSON validation API',
      'data validation REST API',
      'data pipeline validation',
    ],
    path: paths.validationApi,
    crumbs,
    faqs: validationApiFaqs,
  });

  return (
    <SiteLayout>
      <PageHero
        crumbs={crumbs}
        eyebrow="Validation API"
        title="Stop bad files at the door of your pipeline"
        lead={`Call one endpoint before you load a file: the same engine as the web app checks it against your schema and answers with every error. The REST API is part of ${business.label} (${priceText(business)}/month, ${validationsText(business)}) and Enterprise.`}
      >
        <ActionLinks
          action={{ label: 'Create an account', to: paths.auth }}
          secondary={{ label: 'Read the API documentation', to: paths.apiDocs }}
        />
      </PageHero>

      <Section title="What the API gives you" tinted>
        <CardGrid items={features} columns={2} />
      </Section>

      <Section
        title="Two calls to a validated file"
        intro={
          <>
            Create a schema once, then send each file with its id. The response says whether the
            file is valid, how many errors it has, a sample of them, row statistics and the id of
            the full report. Every field and status code is in the{' '}
            <Link to={paths.apiDocs} className="font-medium text-indigo-700 hover:underline">
              API documentation
            </Link>
            .
          </>
        }
      >
        <div className="grid min-w-0 gap-6">
          <CodeBlock code={createSchema} title="1. Create a schema" copy />
          <CodeBlock code={validateFile} title="2. Validate a file" copy />
        </div>
      </Section>

      <Section title="Built for automation" tinted>
        <ul className="grid max-w-3xl gap-3 text-[15px] leading-7 text-zinc-700">
          <li>
            <strong className="font-semibold text-zinc-900">Streaming:</strong> uploads are checked
            as they arrive and never written to disk; the file is deleted when validation finishes.
          </li>
          <li>
            <strong className="font-semibold text-zinc-900">Clear failures:</strong> every error
            response is JSON with an error message and a code, with the right HTTP status.
          </li>
          <li>
            <strong className="font-semibold text-zinc-900">Same results everywhere:</strong> a file
            gives the same errors through the API, in the workspace and in the in-browser
            validators, because one engine does all the checking.
          </li>
        </ul>
      </Section>

      <FaqSection faqs={validationApiFaqs} />

      <CtaSection
        heading="Validate files from your pipeline"
        text={`Start free, then upgrade to ${business.label} when you are ready to connect the API.`}
        action={{ label: 'Get Started Free', to: paths.auth }}
        secondary={{ label: 'Compare plans', to: paths.buyingGuide }}
      />
    </SiteLayout>
  );
}
