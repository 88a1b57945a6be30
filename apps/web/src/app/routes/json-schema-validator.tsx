import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function JsonSchemaValidatorRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'JSON Schema Validator',
        description: 'Validate JSON records against a schema of fields, types and rules.',
        path: paths.jsonSchemaValidator,
      }}
      eyebrow="JSON schema validation"
      heading="JSON Schema Validator"
      primary={{ label: 'Start validating for free', to: paths.auth }}
      secondary={{ label: 'Browse schema templates', to: paths.templates }}
    >
      {
        'This guide will show how to validate JSON records against a schema of fields, types and rules, and how to read the path-based error report.'
      }
    </PlaceholderPage>
  );
}
