import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function ApiDocsRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'API Documentation',
        description:
          'Reference for the SchemaCheck REST API: authentication, schemas, validation, jobs and webhooks.',
        path: paths.apiDocs,
      }}
      eyebrow="Developers"
      heading="API Documentation"
      primary={{ label: 'Visit the Help Center', to: paths.help }}
      secondary={{ label: 'See plans with API access', to: paths.buyingGuide }}
    >
      {
        'The reference for the SchemaCheck REST API (authentication with API keys, schema management, file validation, rate limits and webhooks) will be published here.'
      }
    </PlaceholderPage>
  );
}
