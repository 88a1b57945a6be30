import type { ComponentType } from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';

import { RootLayout } from '@/components/layouts/root-layout';
import { paths } from '@/config/paths';

import { RouteError } from './routes/route-error';

/** What a page route carries in `handle`: its module under app/routes (the pre-render reads it). */
export interface PageHandle {
  module: string;
}

// Each page is its own chunk, loaded on first visit. `lazy` maps a module's named export to the
// route's Component; `module` names the file, so that the pre-render can preload its chunk.
function page<M>(module: string, load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await load()), handle: { module } satisfies PageHandle });
}

/** The route table, shared by the browser router (main.tsx) and the pre-render (entry-server.tsx). */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: () => null,
    children: [
      {
        path: paths.home,
        lazy: page(
          'landing',
          () => import('./routes/landing'),
          (m) => m.LandingRoute,
        ),
      },
      {
        path: paths.auth,
        lazy: page(
          'auth',
          () => import('./routes/auth'),
          (m) => m.AuthRoute,
        ),
      },
      {
        path: paths.forgotPassword,
        lazy: page(
          'forgot-password',
          () => import('./routes/forgot-password'),
          (m) => m.ForgotPasswordRoute,
        ),
      },
      {
        path: paths.resetPassword,
        lazy: page(
          'reset-password',
          () => import('./routes/reset-password'),
          (m) => m.ResetPasswordRoute,
        ),
      },
      {
        path: paths.dashboard,
        lazy: page(
          'dashboard',
          () => import('./routes/dashboard'),
          (m) => m.DashboardRoute,
        ),
      },
      {
        path: paths.profile,
        lazy: page(
          'profile',
          () => import('./routes/profile'),
          (m) => m.ProfileRoute,
        ),
      },
      {
        path: paths.privacy,
        lazy: page(
          'privacy',
          () => import('./routes/privacy'),
          (m) => m.PrivacyRoute,
        ),
      },
      {
        path: paths.terms,
        lazy: page(
          'terms',
          () => import('./routes/terms'),
          (m) => m.TermsRoute,
        ),
      },
      {
        path: paths.help,
        lazy: page(
          'help',
          () => import('./routes/help'),
          (m) => m.HelpRoute,
        ),
      },
      {
        path: paths.csvValidator,
        lazy: page(
          'csv-validator',
          () => import('./routes/csv-validator'),
          (m) => m.CsvValidatorRoute,
        ),
      },
      {
        path: paths.jsonValidator,
        lazy: page(
          'json-validator',
          () => import('./routes/json-validator'),
          (m) => m.JsonValidatorRoute,
        ),
      },
      {
        path: paths.csvSchemaValidator,
        lazy: page(
          'csv-schema-validator',
          () => import('./routes/csv-schema-validator'),
          (m) => m.CsvSchemaValidatorRoute,
        ),
      },
      {
        path: paths.jsonSchemaValidator,
        lazy: page(
          'json-schema-validator',
          () => import('./routes/json-schema-validator'),
          (m) => m.JsonSchemaValidatorRoute,
        ),
      },
      {
        path: paths.validationApi,
        lazy: page(
          'validation-api',
          () => import('./routes/validation-api'),
          (m) => m.ValidationApiRoute,
        ),
      },
      {
        path: paths.csvUploadErrors,
        lazy: page(
          'csv-upload-errors',
          () => import('./routes/csv-upload-errors'),
          (m) => m.CsvUploadErrorsRoute,
        ),
      },
      {
        path: paths.jsonValidationErrors,
        lazy: page(
          'json-validation-errors',
          () => import('./routes/json-validation-errors'),
          (m) => m.JsonValidationErrorsRoute,
        ),
      },
      {
        path: paths.templates,
        lazy: page(
          'templates',
          () => import('./routes/templates'),
          (m) => m.TemplatesRoute,
        ),
      },
      {
        path: paths.compare,
        lazy: page(
          'compare',
          () => import('./routes/compare'),
          (m) => m.CompareRoute,
        ),
      },
      {
        path: paths.industries,
        lazy: page(
          'industries',
          () => import('./routes/industries'),
          (m) => m.IndustriesRoute,
        ),
      },
      {
        path: paths.buyingGuide,
        lazy: page(
          'buying-guide',
          () => import('./routes/buying-guide'),
          (m) => m.BuyingGuideRoute,
        ),
      },
      {
        path: paths.stripeSuccess,
        lazy: page(
          'stripe-success',
          () => import('./routes/stripe-success'),
          (m) => m.StripeSuccessRoute,
        ),
      },
      {
        path: paths.apiDocs,
        lazy: page(
          'api-docs',
          () => import('./routes/api-docs'),
          (m) => m.ApiDocsRoute,
        ),
      },
      {
        path: paths.apiReference,
        lazy: page(
          'api-reference',
          () => import('./routes/api-reference'),
          (m) => m.ApiReferenceRoute,
        ),
      },
      {
        path: '*',
        lazy: page(
          'not-found',
          () => import('./routes/not-found'),
          (m) => m.NotFoundRoute,
        ),
      },
    ],
  },
];

/**
 * Loads the page modules the path matches and puts them into the route table, so that the first
 * render (hydrating the pre-rendered HTML, or a fresh render of the single-page app) shows the page
 * itself rather than an empty fallback while its chunk loads.
 */
export async function resolveRoutesFor(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const resolved = await route.lazy();
      Object.assign(route, resolved);
      delete route.lazy;
    }),
  );
}
