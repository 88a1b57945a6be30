import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { paths } from '@/config/paths';

export function PrivacyRoute() {
  return (
    <PlaceholderPage
      meta={{
        title: 'Privacy Policy',
        description:
          'How SchemaCheck handles your files and account data: files are processed in memory and deleted after validation.',
        path: paths.privacy,
      }}
      eyebrow="Legal"
      heading="Privacy Policy"
      primary={{ label: 'Visit the Help Center', to: paths.help }}
      secondary={{ label: 'Read the Terms of Service', to: paths.terms }}
    >
      {
        'Our full privacy policy will be published here: how uploaded files are processed in memory and deleted after validation, which account details we keep, and how to have them removed.'
      }
    </PlaceholderPage>
  );
}
