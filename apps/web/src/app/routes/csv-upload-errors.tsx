import { PLANS } from '@schemacheck/contracts';
import { Link } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { ActionLinks } from '@/components/ui/action-links';
import { Badge } from '@/components/ui/badge';
import { paths } from '@/config/paths';
import { CtaSection } from '@/features/marketing/components/cta-section';
import { FaqSection } from '@/features/marketing/components/faq-section';
import {
  GuideCards,
  GuideProblem,
  InlineCode,
} from '@/features/marketing/components/guide-problem';
import { PageHero, Section } from '@/features/marketing/components/page-sections';
import { csvGuideExamples } from '@/features/marketing/content/engine-examples';
import { csvGuideFaqs } from '@/features/marketing/content/faqs';
import { maxFileText } from '@/features/marketing/lib/plan-copy';
import { serverLimitsText } from '@/lib/plan-display';
import { HOME_CRUMB, useMarketingMeta } from '@/features/marketing/lib/use-marketing-meta';

const crumbs = [
  HOME_CRUMB,
  { label: 'Help', path: paths.help },
  { label: 'Fix CSV upload errors', path: paths.csvUploadErrors },
];

const cards = [
  {
    id: 'headers',
    title: 'Headers don’t match',
    text: 'A column is missing, renamed or spelled differently from what the importer expects.',
  },
  {
    id: 'delimiters',
    title: 'Wrong delimiter or quotes',
    text: 'A comma inside a value splits it into two cells, or the file uses semicolons.',
  },
  {
    id: 'encoding',
    title: 'Encoding is not UTF-8',
    text: 'Accented letters turn into symbols; save as UTF-8 without a BOM.',
  },
  {
    id: 'data-types',
    title: 'Invalid data types',
    text: 'Dates not in ISO YYYY-MM-DD, numbers with thousands separators, text in number columns.',
  },
];

export function CsvUploadErrorsRoute() {
  useMarketingMeta({
    title: 'Fix CSV Upload Errors: Headers, Delimiters, Encoding and Data Types',
    description:
      'Why CSV imports fail and how to fix them: mismatched headers, commas and quotes, UTF-8 encoding and ISO dates, each with a before/after example and the exact error our validator reports.',
    keywords: [
      'CSV upload error',
      'CSV import failed',
      'fix CSV file',
      'CSV headers do not match',
      'CSV UTF-8 without BOM',
      'CSV date format',
    ],
    path: paths.csvUploadErrors,
    ogType: 'article',
    crumbs,
    faqs: csvGuideFaqs,
  });

  return (
    <SiteLayout>
      <PageHero
        crumbs={crumbs}
        eyebrow="Guide"
        title="Fix CSV Upload Errors"
        lead="Most failed CSV imports come down to four problems. Here is how to recognise each one, what SchemaCheck reports for it, and how to fix the file."
      >
        <div className="flex flex-wrap gap-2">
          <Badge>Free CSV check ({maxFileText(PLANS.free)})</Badge>
          <Badge variant="neutral">No credit card</Badge>
        </div>
        <p className="mt-3 max-w-2xl text-sm text-zinc-600">
          Checked in your browser at any size: your file never leaves your device. The{' '}
          {PLANS.free.label} plan’s {serverLimitsText(PLANS.free)} apply only to what runs and is
          stored on our servers.
        </p>
        <ActionLinks
          action={{ label: 'Check your CSV now', to: paths.csvValidator }}
          secondary={{ label: 'Create a free account', to: paths.auth }}
          className="mt-6"
        />
      </PageHero>

      <Section title="The four usual suspects" tinted>
        <GuideCards items={cards} />
      </Section>

      <Section
        id="problems"
        title="Each problem, fixed"
        intro="Every example below is a real file and the exact report SchemaCheck gives for it."
      >
        <div className="grid gap-8">
          <GuideProblem
            id="headers"
            number={1}
            title="Headers don’t match"
            example={csvGuideExamples.headers}
            fix={
              <>
                rename the column in the first row so it matches exactly, and delete columns the
                target system does not accept.
              </>
            }
          >
            <p>
              Importers find columns by their header, and SchemaCheck checks headers exactly: case,
              spaces and punctuation all count, so <InlineCode>E-mail</InlineCode> is not{' '}
              <InlineCode>email</InlineCode>. Every column in the schema must be present; you can
              also require the schema’s order and refuse columns the schema does not list.
            </p>
          </GuideProblem>

          <GuideProblem
            id="delimiters"
            number={2}
            title="Wrong delimiter or quotes"
            example={csvGuideExamples.quotes}
            fix={
              <>
                quote values that contain commas (spreadsheet programs do this when they save as
                CSV), and save with comma as the delimiter.
              </>
            }
          >
            <p>
              A CSV file separates values with commas. A value that itself holds a comma or a line
              break must be wrapped in double quotes, and a double quote inside it is written twice.
              Without the quotes, <InlineCode>Desk, oak</InlineCode> becomes two cells and every
              later value shifts one column to the right.
            </p>
            <p>
              Files saved with semicolons, tabs or pipes are read too: SchemaCheck detects the
              delimiter from the first lines and tells you which one it used, but many importers
              only accept commas.
            </p>
          </GuideProblem>

          <GuideProblem
            id="encoding"
            number={3}
            title="Encoding is not UTF-8"
            example={csvGuideExamples.encoding}
            fix={
              <>
                save as <em>CSV UTF-8</em> and, if your importer refuses the BOM, re-save in a text
                editor as UTF-8 without BOM.
              </>
            }
          >
            <p>
              Older spreadsheet versions save CSV in a legacy encoding such as Windows-1252. The
              bytes for <InlineCode>é</InlineCode> are then different from UTF-8’s, and the importer
              shows <InlineCode>Caf�</InlineCode> or refuses the file. Some importers also reject a
              UTF-8 byte order mark (BOM) at the start of the file.
            </p>
            <p>
              SchemaCheck reads UTF-8 (with or without a BOM), UTF-16 and Windows-1252, and warns
              you when the file was not UTF-8, as in the example.
            </p>
          </GuideProblem>

          <GuideProblem
            id="data-types"
            number={4}
            title="Invalid data types"
            example={csvGuideExamples.types}
            fix={
              <>
                format date columns as YYYY-MM-DD and number columns without separators or symbols
                before you export.
              </>
            }
          >
            <p>
              Dates written the way a spreadsheet displays them (<InlineCode>03/15/2024</InlineCode>
              ) are ambiguous; most importers expect ISO dates, <InlineCode>YYYY-MM-DD</InlineCode>.
              Numbers with thousands separators (<InlineCode>1,250.00</InlineCode>) or currency
              symbols are text to an importer.
            </p>
          </GuideProblem>
        </div>
      </Section>

      <Section title="Reports of every error" tinted>
        <div className="max-w-3xl text-[15px] leading-7 text-zinc-700">
          <p>
            The free in-browser{' '}
            <Link to={paths.csvValidator} className="font-medium text-indigo-700 hover:underline">
              CSV validator
            </Link>{' '}
            and the {PLANS.free.label} plan’s dashboard list every error and build a CSV report of
            them on your device. Error reports exported from our servers, stored with the results,
            are part of the paid plans ({PLANS.pro.label} and above), along with saved schemas. See{' '}
            <Link to={paths.buyingGuide} className="font-medium text-indigo-700 hover:underline">
              plans and pricing
            </Link>{' '}
            or the{' '}
            <Link
              to={paths.jsonValidationErrors}
              className="font-medium text-indigo-700 hover:underline"
            >
              JSON validation errors guide
            </Link>
            .
          </p>
        </div>
      </Section>

      <FaqSection faqs={csvGuideFaqs} />

      <CtaSection
        heading="Stop failed imports before they happen"
        text="Create a free account, describe your columns once and check every file before you upload it."
        action={{ label: 'Get Started Free', to: paths.auth }}
        secondary={{ label: 'Browse templates', to: paths.templates }}
      />
    </SiteLayout>
  );
}
