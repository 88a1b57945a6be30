import { Home } from 'lucide-react';
import { Link } from 'react-router-dom';

import { SiteLayout } from '@/components/layouts/site-layout';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { usePageMeta } from '@/hooks/use-page-meta';

const popular = [
  { label: 'CSV validator', to: paths.csvValidator },
  { label: 'JSON validator', to: paths.jsonValidator },
  { label: 'Templates', to: paths.templates },
  { label: 'Pricing', to: paths.buyingGuide },
  { label: 'Help Center', to: paths.help },
];

export function NotFoundRoute() {
  usePageMeta({
    title: 'Page Not Found',
    description: "The page you're looking for doesn't exist or has been moved.",
    keywords: ['page not found', 'SchemaCheck'],
    noindex: true,
  });
  return (
    <SiteLayout footer="simple">
      <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center sm:py-32">
        <p className="text-sm font-semibold text-indigo-700">404</p>
        <h1 className="mt-3 text-3xl font-semibold tracking-tight text-zinc-900 sm:text-4xl">
          Page Not Found
        </h1>
        <p className="mt-4 text-base leading-7 text-zinc-600">
          The page you&apos;re looking for doesn&apos;t exist or has been moved.
        </p>
        <Link to={paths.home} className={buttonVariants({ size: 'lg', className: 'mt-10' })}>
          <Home aria-hidden="true" />
          Return Home
        </Link>
        <nav aria-label="Popular pages" className="mt-10">
          <h2 className="text-sm font-semibold text-zinc-900">Or try one of these</h2>
          <ul className="mt-3 flex flex-wrap justify-center gap-x-5 gap-y-2 text-sm">
            {popular.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="font-medium text-indigo-700 hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </SiteLayout>
  );
}
