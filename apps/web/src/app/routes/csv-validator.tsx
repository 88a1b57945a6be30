import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function CsvValidatorRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'CSV Validator',
        description:
          'Check CSV files for header, type and format errors by row and column before you import them.',
        path: paths.csvValidator,
      }}
      eyebrow="CSV Validator"
      heading="Validate CSV files against your schema"
      primary={{ label: 'Start validating for free', to: paths.auth }}
      secondary={{ label: 'JSON validator', to: paths.jsonValidator }}
    >
      {
        'This page will explain how SchemaCheck checks CSV files: headers, data types, required values, lengths, patterns and dates, with every error reported by row and column.'
      }
    </PlaceholderPage>
  );
}
