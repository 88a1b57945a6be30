import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function TemplatesRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'Schema Templates',
        description:
          'Ready-made CSV and JSON schemas for product feeds, transactions, contacts, events and more.',
        path: paths.templates,
      }}
      eyebrow="Templates"
      heading="Schema Templates"
      primary={{ label: 'Start validating for free', to: paths.auth }}
      secondary={{ label: 'CSV validator', to: paths.csvValidator }}
    >
      {
        'Ready-to-copy schemas for common files (product feeds, transactions, contacts, event data, user records and app configuration) will be collected here.'
      }
    </PlaceholderPage>
  );
}
