import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';
import { SUPPORT_EMAIL } from '@/config/site';

export function HelpRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'Help Center',
        description: 'Answers about schemas, file formats, plans, the API and your account.',
        path: paths.help,
      }}
      eyebrow="Support"
      heading="Help Center"
      primary={{ label: 'Email support', href: `mailto:${SUPPORT_EMAIL}` }}
      secondary={{ label: 'Fix CSV upload errors', to: paths.csvUploadErrors }}
    >
      {
        'Guides and answers about creating schemas, supported file formats, plans, the API and managing your account will be collected here; until then, our support team is a message away.'
      }
    </PlaceholderPage>
  );
}
