import { Link } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { ActionLinks } from '@/components/ui/action-links';
import { paths } from '@/config/paths';
import { CtaSection } from '@/features/marketing/components/cta-section';
import { FaqSection } from '@/features/marketing/components/faq-section';
import {
  GuideCards,
  GuideProblem,
  InlineCode,
} from '@/features/marketing/components/guide-problem';
import { PageHero, Section } from '@/features/marketing/components/page-sections';
import { jsonGuideExamples } from '@/features/marketing/content/engine-examples';
import { jsonGuideFaqs } from '@/features/marketing/content/faqs';
import { HOME_CRUMB, useMarketingMeta } from '@/features/marketing/lib/use-marketing-meta';

const crumbs = [
  HOME_CRUMB,
  { label: 'Help', path: paths.help },
  { label: 'Fix JSON validation errors', path: paths.jsonValidationErrors },
];

const cards = [
  {
    id: 'parse-errors',
    title: 'Parse errors',
    text: 'Trailing commas, single quotes and unclosed brackets make a file unreadable.',
  },
  {
    id: 'wrong-types',
    title: 'Wrong types',
    text: 'A number in quotes is text; true in quotes is not a boolean.',
  },
  {
    id: 'missing-required',
    title: 'Missing required fields',
    text: 'A record leaves out a property the schema requires, or sets it to null.',
  },
  {
    id: 'additional-properties',
    title: 'Additional properties',
    text: 'A record carries a property the schema does not list.',
  },
];

const link = 'font-medium text-indigo-700 hover:underline';

export function JsonValidationErrorsRoute() {
  useMarketingMeta({
    title: 'Fix JSON Validation Errors: Syntax, Types, Required and Extra Properties',
    description:
      'How to fix the four kinds of JSON validation error: parse errors, wrong types, missing required fields and additional properties, with real before/after examples and the exact messages.',
    keywords: [
      'JSON validation error',
      'invalid JSON',
      'JSON trailing comma',
      'JSON schema required property',
      'additionalProperties error',
    ],
    path: paths.jsonValidationErrors,
    ogType: 'article',
    crumbs,
    faqs: jsonGuideFaqs,
  });

  return (
    <SiteLayout>
      <PageHero
        crumbs={crumbs}
        eyebrow="Guide"
        title="Fix JSON Validation Errors"
        lead="A JSON file can fail in two ways: it is not valid JSON at all, or it is valid JSON whose records do not match the schema. Here are the four errors you will meet and how to fix each."
      >
        <ActionLinks
          action={{ label: 'Check your JSON now', to: paths.jsonValidator }}
          secondary={{ label: 'Create a free account', to: paths.auth }}
        />
      </PageHero>

      <Section title="The four kinds of JSON error" tinted>
        <GuideCards items={cards} />
      </Section>

      <Section
        id="problems"
        title="Each error, fixed"
        intro="All four examples validate user records against the same schema: id is a whole number of at least 1, email is a valid email, role is admin, editor or viewer."
      >
        <div className="grid gap-8">
          <GuideProblem
            id="parse-errors"
            number={1}
            title="Parse errors"
            example={jsonGuideExamples.parse}
            fix={
              <>
                remove the trailing comma, switch to double quotes, or add the missing bracket at
                the position given.
              </>
            }
          >
            <p>
              JSON is strict: no comma after the last item of an object or array, property names and
              text in double quotes (never single quotes), and every <InlineCode>{'{'}</InlineCode>{' '}
              and <InlineCode>[</InlineCode> closed. SchemaCheck names the line and column where
              reading failed and what it expected.
            </p>
          </GuideProblem>

          <GuideProblem
            id="wrong-types"
            number={2}
            title="Wrong types"
            example={jsonGuideExamples.types}
            fix={
              <>
                write numbers and booleans without quotes, or change the field’s type if it really
                is text.
              </>
            }
          >
            <p>
              In JSON, <InlineCode>"42"</InlineCode> is text and <InlineCode>42</InlineCode> is a
              number; <InlineCode>"true"</InlineCode> is text and <InlineCode>true</InlineCode> is a
              boolean. Exports that quote every value break type checks downstream.
            </p>
          </GuideProblem>

          <GuideProblem
            id="missing-required"
            number={3}
            title="Missing required fields"
            example={jsonGuideExamples.required}
            fix={<>add the property to every record, or make the field optional in the schema.</>}
          >
            <p>
              A required property must be present and not null. Optional properties may be left out,
              and when they are, no other rule is applied to them.
            </p>
          </GuideProblem>

          <GuideProblem
            id="additional-properties"
            number={4}
            title="Additional properties"
            example={jsonGuideExamples.additional}
            fix={<>remove the property, fix its spelling, or add it to the schema.</>}
          >
            <p>
              By default extra properties are allowed. When the schema switches additional
              properties off (as JSON Schema’s <InlineCode>additionalProperties: false</InlineCode>{' '}
              does), every property it does not list is reported, which catches typos such as{' '}
              <InlineCode>emial</InlineCode> as well as unexpected data.
            </p>
          </GuideProblem>
        </div>
      </Section>

      <Section title="Formats the validator checks" tinted>
        <div className="max-w-3xl text-[15px] leading-7 text-zinc-700">
          <p>
            Besides types, SchemaCheck checks the formats JSON Schema names: <em>email</em>,{' '}
            <em>uri</em> (absolute http or https URLs), <em>date</em> and <em>date-time</em> (ISO
            8601), plus lengths, ranges, patterns and allowed values. Errors come with the record
            number and the JSON path, such as <InlineCode>$[41].address.postcode</InlineCode>.
          </p>
          <p className="mt-4">
            Related: the{' '}
            <Link to={paths.csvValidator} className={link}>
              CSV validator
            </Link>
            , the{' '}
            <Link to={paths.jsonValidator} className={link}>
              JSON validator
            </Link>
            , the{' '}
            <Link to={paths.apiDocs} className={link}>
              API documentation
            </Link>
            , the{' '}
            <Link to={paths.help} className={link}>
              help center
            </Link>
            , our{' '}
            <Link to={paths.privacy} className={link}>
              Privacy Policy
            </Link>{' '}
            and{' '}
            <Link to={paths.terms} className={link}>
              Terms of Service
            </Link>
            .
          </p>
        </div>
      </Section>

      <FaqSection faqs={jsonGuideFaqs} />

      <CtaSection
        heading="Validate every record before it ships"
        text="Create a free account to check JSON files against your schema, and use the API on Business to check them in your pipeline."
        action={{ label: 'Get Started Free', to: paths.auth }}
        secondary={{ label: 'Browse templates', to: paths.templates }}
      />
    </SiteLayout>
  );
}
