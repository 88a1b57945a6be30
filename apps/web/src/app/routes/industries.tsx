import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function IndustriesRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'Data Validation by Industry',
        description:
          'How e-commerce, finance, logistics, data, CRM and engineering teams validate their files with SchemaCheck.',
        path: paths.industries,
      }}
      eyebrow="Industries"
      heading="SchemaCheck for your industry"
      primary={{ label: 'Browse schema templates', to: paths.templates }}
      secondary={{ label: 'Start validating for free', to: paths.auth }}
    >
      {
        'This page will show the checks that e-commerce, finance, logistics, data, CRM and engineering teams run on their files, with a ready-made schema for each.'
      }
    </PlaceholderPage>
  );
}
