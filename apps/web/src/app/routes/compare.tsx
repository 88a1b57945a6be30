import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function CompareRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'Compare SchemaCheck with Other Validators',
        description: 'How SchemaCheck compares with other CSV and JSON validation tools.',
        path: paths.compare,
      }}
      eyebrow="Compare"
      heading="Compare SchemaCheck"
      primary={{ label: 'See plans and pricing', to: paths.buyingGuide }}
      secondary={{ label: 'Start validating for free', to: paths.auth }}
    >
      {
        'A side-by-side comparison of SchemaCheck with other CSV and JSON validation tools, feature by feature, will be published here.'
      }
    </PlaceholderPage>
  );
}
