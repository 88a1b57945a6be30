import { SiteLayout } from '@/components/layouts/site-layout';
import { paths } from '@/config/paths';
import { ApiDocsContent } from '@/features/api-docs/components/api-docs-content';
import { usePageMeta } from '@/hooks/use-page-meta';

export function ApiDocsRoute() {
  usePageMeta({
    title: 'API Documentation',
    description:
      'The SchemaCheck REST API: API keys, schemas, file validation, reports, usage and rate limits, with cURL, Python and JavaScript samples.',
    keywords: [
      'SchemaCheck API',
      'CSV validation API',
      'JSON validation API',
      'REST API',
      'webhooks',
      'API keys',
    ],
    path: paths.apiDocs,
  });
  return (
    <SiteLayout className="bg-zinc-50">
      <ApiDocsContent />
    </SiteLayout>
  );
}
