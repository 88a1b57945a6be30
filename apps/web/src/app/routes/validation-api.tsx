import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function ValidationApiRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'Validation API',
        description:
          'Validate CSV and JSON files from code with the SchemaCheck REST API, API keys and webhooks.',
        path: paths.validationApi,
      }}
      eyebrow="Validation API"
      heading="Validate files from your own pipeline"
      primary={{ label: 'Read the API documentation', to: paths.apiDocs }}
      secondary={{ label: 'Compare plans', to: paths.buyingGuide }}
    >
      {
        'This page will introduce the SchemaCheck REST API for Business and Enterprise plans: validate files from your pipeline with an API key and receive results by webhook.'
      }
    </PlaceholderPage>
  );
}
