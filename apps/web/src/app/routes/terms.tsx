import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function TermsRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'Terms of Service',
        description:
          'The terms that apply when you use SchemaCheck to validate CSV and JSON files.',
        path: paths.terms,
      }}
      eyebrow="Legal"
      heading="Terms of Service"
      primary={{ label: 'Visit the Help Center', to: paths.help }}
      secondary={{ label: 'Read the Privacy Policy', to: paths.privacy }}
    >
      {
        'The terms of service for SchemaCheck will be published here, covering accounts, plans and billing, acceptable use and how long validation results are kept.'
      }
    </PlaceholderPage>
  );
}
