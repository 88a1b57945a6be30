import { SiteLayout } from '@/components/layouts/site-layout';
import { paths } from '@/config/paths';
import { ApiReferenceContent } from '@/features/api-docs/components/api-reference-content';
import { usePageMeta } from '@/hooks/use-page-meta';

export function ApiReferenceRoute() {
  usePageMeta({
    title: 'API Endpoint Reference',
    description:
      'Every endpoint of the SchemaCheck REST API v1: parameters, request bodies and responses, generated from the OpenAPI 3.1 document.',
    keywords: [
      'SchemaCheck API reference',
      'OpenAPI',
      'REST API endpoints',
      'CSV validation API',
      'JSON validation API',
    ],
    path: paths.apiReference,
  });
  return (
    <SiteLayout className="bg-zinc-50">
      <ApiReferenceContent />
    </SiteLayout>
  );
}
