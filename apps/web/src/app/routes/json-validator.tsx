import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function JsonValidatorRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'JSON Validator',
        description:
          'Check JSON and NDJSON files for syntax, type and missing-field errors, with the path of every problem.',
        path: paths.jsonValidator,
      }}
      eyebrow="JSON Validator"
      heading="Validate JSON files against your schema"
      primary={{ label: 'Start validating for free', to: paths.auth }}
      secondary={{ label: 'CSV validator', to: paths.csvValidator }}
    >
      {
        'This page will explain how SchemaCheck checks JSON and NDJSON files: syntax, types, required properties and formats, with the JSON path of every error.'
      }
    </PlaceholderPage>
  );
}
