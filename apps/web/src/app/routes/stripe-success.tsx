import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function StripeSuccessRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'Payment Confirmation',
        description: 'Confirmation of your SchemaCheck subscription after checkout.',
        path: paths.stripeSuccess,
        noindex: true,
      }}
      eyebrow="Billing"
      heading="Payment confirmation"
      primary={{ label: 'Go to your profile', to: paths.profile }}
      secondary={{ label: 'Back to the dashboard', to: paths.dashboard }}
    >
      {
        'After checkout this page will confirm your payment and activate your plan. Online payments are not open yet, so there is nothing to confirm today.'
      }
    </PlaceholderPage>
  );
}
