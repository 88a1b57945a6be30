import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  type RouteObject,
} from 'react-router-dom';

import { App } from './app';
import { routes, type PageHandle } from './app/router';
import { paths } from './config/paths';
import { setSiteOrigin } from './lib/site-url';
import { PageMetaSinkContext, type PageMetaSink } from './hooks/use-page-meta';
import type { HeadInput } from './components/seo/head-tags';

export { headHtml } from './components/seo/head-tags';

// The pre-render's entry (docs/decisions/105): apps/web/scripts/build.mjs bundles it for Node and
// renders every public page with it. The tree is the browser's (main.tsx) with a static router,
// so that the browser hydrates exactly this markup.

/** Every public page, pre-rendered to HTML at build time (order: the sitemap's). */
export const PRERENDERED_PATHS: string[] = [
  paths.home,
  paths.csvValidator,
  paths.jsonValidator,
  paths.csvSchemaValidator,
  paths.jsonSchemaValidator,
  paths.validationApi,
  paths.csvUploadErrors,
  paths.jsonValidationErrors,
  paths.templates,
  paths.compare,
  paths.industries,
  paths.buyingGuide,
  paths.help,
  paths.apiDocs,
  paths.apiReference,
  paths.privacy,
  paths.terms,
  paths.auth,
  paths.forgotPassword,
];

/** The path the 404 page is rendered at: one that no route but the catch-all matches. */
export const NOT_FOUND_RENDER_PATH = '/__not-found__';

/** Every concrete path of the route table (no `*`), for the server's list of app routes. */
export function routePaths(table: RouteObject[] = routes): string[] {
  return table.flatMap((route) => [
    ...(route.path && route.path !== '*' ? [route.path] : []),
    ...routePaths(route.children ?? []),
  ]);
}

export interface RenderedPage {
  /** The markup of #root. */
  html: string;
  meta: HeadInput;
  /** app/routes modules the page is made of (their chunks are preloaded). */
  modules: string[];
}

export async function renderPage(pathname: string, origin: string): Promise<RenderedPage> {
  // Structured data carries absolute URLs too (features/marketing/lib/json-ld.ts).
  setSiteOrigin(origin);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, origin)));
  if (context instanceof Response) throw new Error(`${pathname}: the router answered a redirect`);
  if (context.errors) {
    throw new Error(`${pathname}: ${JSON.stringify(Object.values(context.errors)[0])}`);
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  const sink: PageMetaSink = {};
  const { prelude } = await prerender(
    <StrictMode>
      <PageMetaSinkContext value={sink}>
        <App router={<StaticRouterProvider router={router} context={context} hydrate={false} />} />
      </PageMetaSinkContext>
    </StrictMode>,
  );
  const html = await new Response(prelude).text();
  if (!sink.meta) throw new Error(`${pathname}: the page does not call usePageMeta`);
  const modules = context.matches
    .map((match) => (match.route.handle as PageHandle | undefined)?.module)
    .filter((module): module is string => typeof module === 'string');
  return { html, meta: sink.meta, modules };
}
