import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function CsvUploadErrorsRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'Fix CSV Upload Errors',
        description:
          'How to fix the most common CSV upload errors: mismatched headers, delimiters and quotes, encoding and data types.',
        path: paths.csvUploadErrors,
      }}
      eyebrow="Guide"
      heading="Fix CSV Upload Errors"
      primary={{ label: 'Check a CSV file for free', to: paths.auth }}
      secondary={{ label: 'Fix JSON validation errors', to: paths.jsonValidationErrors }}
    >
      {
        'This guide will walk through the most common reasons a CSV upload is rejected (mismatched headers, delimiters and quotes, encoding, and invalid data types) and how to fix each one.'
      }
    </PlaceholderPage>
  );
}
