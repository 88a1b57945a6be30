import { paths } from '@/config/paths';
import { ValidatorGuide } from '@/features/marketing/components/validator-guide';
import { csvGuideExamples } from '@/features/marketing/content/engine-examples';
import { csvValidatorFaqs } from '@/features/marketing/content/faqs';
import { breadcrumbJsonLd, faqJsonLd } from '@/features/marketing/lib/json-ld';
import { HOME_CRUMB } from '@/features/marketing/lib/use-marketing-meta';
import { useTemplatePreset } from '@/features/marketing/lib/use-template-preset';
import { ValidatorPage } from '@/features/validation/components/validator-page';

const crumbs = [HOME_CRUMB, { label: 'CSV Validator', path: paths.csvValidator }];

const reads = [
  {
    title: 'Any delimiter',
    text: 'Comma, semicolon, tab or pipe, detected from the first lines and named in a note.',
  },
  {
    title: 'Quotes and line breaks',
    text: 'Quoted values may hold commas, doubled quotes and line breaks, as RFC 4180 allows.',
  },
  {
    title: 'Encodings',
    text: 'UTF-8 with or without a byte order mark, UTF-16, and Windows-1252 with a warning.',
  },
  {
    title: 'Headers',
    text: 'Every schema column must be present; optionally in order and with no extra columns.',
  },
  {
    title: 'Row shape',
    text: 'Rows with more or fewer cells than the header are reported with their row number.',
  },
  {
    title: 'Large files',
    text: 'Read in small pieces by a background worker, so the page stays responsive.',
  },
];

export function CsvValidatorRoute() {
  // /templates links here with ?template=<id>: the validator starts from that template.
  const preset = useTemplatePreset('csv');
  return (
    <ValidatorPage
      fileType="csv"
      preset={preset}
      meta={{
        title: 'Free CSV Validator: Check a CSV File Against Your Schema',
        keywords: [
          'CSV validator',
          'validate CSV online',
          'CSV checker',
          'CSV file validation',
          'CSV lint',
        ],
        jsonLd: [breadcrumbJsonLd(crumbs), faqJsonLd(csvValidatorFaqs)],
      }}
    >
      <ValidatorGuide
        fileType="csv"
        example={csvGuideExamples.types}
        exampleIntro="A bank export with a US-style date and a thousands separator, checked against a transactions schema."
        readsTitle="What the CSV validator reads"
        reads={reads}
        faqs={csvValidatorFaqs}
      />
    </ValidatorPage>
  );
}
