import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function BuyingGuideRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'Pricing and Buying Guide',
        description:
          'Compare the SchemaCheck Free, Pro, Business and Enterprise plans and choose the right one.',
        path: paths.buyingGuide,
      }}
      eyebrow="Pricing"
      heading="Plans and pricing"
      primary={{ label: 'Start on the free plan', to: paths.auth }}
      secondary={{ label: 'Compare tools', to: paths.compare }}
    >
      {
        'A guide to the Free, Pro, Business and Enterprise plans (file sizes, row limits, saved schemas, API access and support) and how to choose between them will be published here.'
      }
    </PlaceholderPage>
  );
}
