import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function CsvSchemaValidatorRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'CSV Schema Validator',
        description:
          'Define a schema for your CSV files once and validate every export against it.',
        path: paths.csvSchemaValidator,
      }}
      eyebrow="CSV schema validation"
      heading="CSV Schema Validator"
      primary={{ label: 'Start validating for free', to: paths.auth }}
      secondary={{ label: 'Browse schema templates', to: paths.templates }}
    >
      {
        'This guide will show how to describe a CSV file as a schema (columns, types and rules) and validate every new export against it in seconds.'
      }
    </PlaceholderPage>
  );
}
