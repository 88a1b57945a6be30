import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function JsonValidationErrorsRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'Fix JSON Validation Errors',
        description:
          'How to fix JSON parse errors, wrong types, missing required fields and unexpected properties.',
        path: paths.jsonValidationErrors,
      }}
      eyebrow="Guide"
      heading="Fix JSON Validation Errors"
      primary={{ label: 'Check a JSON file for free', to: paths.auth }}
      secondary={{ label: 'Fix CSV upload errors', to: paths.csvUploadErrors }}
    >
      {
        'This guide will explain JSON parse errors, wrong types, missing required fields and unexpected properties, with a fix for each.'
      }
    </PlaceholderPage>
  );
}
