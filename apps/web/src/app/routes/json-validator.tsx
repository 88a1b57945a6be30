import { paths } from '@/config/paths';
import { ValidatorGuide } from '@/features/marketing/components/validator-guide';
import { jsonGuideExamples } from '@/features/marketing/content/engine-examples';
import { jsonValidatorFaqs } from '@/features/marketing/content/faqs';
import { breadcrumbJsonLd, faqJsonLd } from '@/features/marketing/lib/json-ld';
import { HOME_CRUMB } from '@/features/marketing/lib/use-marketing-meta';
import { useTemplatePreset } from '@/features/marketing/lib/use-template-preset';
import { ValidatorPage } from '@/features/validation/components/validator-page';

const crumbs = [HOME_CRUMB, { label: 'JSON Validator', path: paths.jsonValidator }];

const reads = [
  {
    title: 'Arrays of records',
    text: 'The usual export shape: [ {…}, {…} ], each object checked as one record.',
  },
  { title: 'NDJSON', text: 'One record per line, as logs and data pipelines write them.' },
  { title: 'Single objects', text: 'A config file or one API response, checked as one record.' },
  {
    title: 'Nested properties',
    text: 'Reach into objects with dotted names such as address.postcode.',
  },
  {
    title: 'Syntax errors',
    text: 'Reported with line and column, and what the reader expected to find.',
  },
  {
    title: 'Exact numbers',
    text: 'Large numbers are compared as written, never rounded through floating point.',
  },
];

export function JsonValidatorRoute() {
  // /templates links here with ?template=<id>: the validator starts from that template.
  const preset = useTemplatePreset('json');
  return (
    <ValidatorPage
      fileType="json"
      preset={preset}
      meta={{
        title: 'Free JSON Validator: Check JSON Records Against Your Schema',
        keywords: [
          'JSON validator',
          'validate JSON online',
          'JSON checker',
          'NDJSON validator',
          'JSON file validation',
        ],
        jsonLd: [breadcrumbJsonLd(crumbs), faqJsonLd(jsonValidatorFaqs)],
      }}
    >
      <ValidatorGuide
        fileType="json"
        example={jsonGuideExamples.types}
        exampleIntro="A user export whose id was written in quotes, checked against a users schema."
        readsTitle="What the JSON validator reads"
        reads={reads}
        faqs={jsonValidatorFaqs}
      />
    </ValidatorPage>
  );
}
