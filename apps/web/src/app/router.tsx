import type { ComponentType } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';

import { RootLayout } from '@/components/layouts/root-layout';
import { paths } from '@/config/paths';

import { RouteError } from './routes/route-error';

// Each page is its own chunk, loaded on first visit. `lazy` maps a module's named export to the
// route's Component.
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await load()) });
}

const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: () => null,
    children: [
      {
        path: paths.home,
        lazy: page(
          () => import('./routes/landing'),
          (m) => m.LandingRoute,
        ),
      },
      {
        path: paths.auth,
        lazy: page(
          () => import('./routes/auth'),
          (m) => m.AuthRoute,
        ),
      },
      {
        path: paths.forgotPassword,
        lazy: page(
          () => import('./routes/forgot-password'),
          (m) => m.ForgotPasswordRoute,
        ),
      },
      {
        path: paths.resetPassword,
        lazy: page(
          () => import('./routes/reset-password'),
          (m) => m.ResetPasswordRoute,
        ),
      },
      {
        path: paths.dashboard,
        lazy: page(
          () => import('./routes/dashboard'),
          (m) => m.DashboardRoute,
        ),
      },
      {
        path: paths.profile,
        lazy: page(
          () => import('./routes/profile'),
          (m) => m.ProfileRoute,
        ),
      },
      {
        path: paths.privacy,
        lazy: page(
          () => import('./routes/privacy'),
          (m) => m.PrivacyRoute,
        ),
      },
      {
        path: paths.terms,
        lazy: page(
          () => import('./routes/terms'),
          (m) => m.TermsRoute,
        ),
      },
      {
        path: paths.help,
        lazy: page(
          () => import('./routes/help'),
          (m) => m.HelpRoute,
        ),
      },
      {
        path: paths.csvValidator,
        lazy: page(
          () => import('./routes/csv-validator'),
          (m) => m.CsvValidatorRoute,
        ),
      },
      {
        path: paths.jsonValidator,
        lazy: page(
          () => import('./routes/json-validator'),
          (m) => m.JsonValidatorRoute,
        ),
      },
      {
        path: paths.csvSchemaValidator,
        lazy: page(
          () => import('./routes/csv-schema-validator'),
          (m) => m.CsvSchemaValidatorRoute,
        ),
      },
      {
        path: paths.jsonSchemaValidator,
        lazy: page(
          () => import('./routes/json-schema-validator'),
          (m) => m.JsonSchemaValidatorRoute,
        ),
      },
      {
        path: paths.validationApi,
        lazy: page(
          () => import('./routes/validation-api'),
          (m) => m.ValidationApiRoute,
        ),
      },
      {
        path: paths.csvUploadErrors,
        lazy: page(
          () => import('./routes/csv-upload-errors'),
          (m) => m.CsvUploadErrorsRoute,
        ),
      },
      {
        path: paths.jsonValidationErrors,
        lazy: page(
          () => import('./routes/json-validation-errors'),
          (m) => m.JsonValidationErrorsRoute,
        ),
      },
      {
        path: paths.templates,
        lazy: page(
          () => import('./routes/templates'),
          (m) => m.TemplatesRoute,
        ),
      },
      {
        path: paths.compare,
        lazy: page(
          () => import('./routes/compare'),
          (m) => m.CompareRoute,
        ),
      },
      {
        path: paths.industries,
        lazy: page(
          () => import('./routes/industries'),
          (m) => m.IndustriesRoute,
        ),
      },
      {
        path: paths.buyingGuide,
        lazy: page(
          () => import('./routes/buying-guide'),
          (m) => m.BuyingGuideRoute,
        ),
      },
      {
        path: paths.stripeSuccess,
        lazy: page(
          () => import('./routes/stripe-success'),
          (m) => m.StripeSuccessRoute,
        ),
      },
      {
        path: paths.apiDocs,
        lazy: page(
          () => import('./routes/api-docs'),
          (m) => m.ApiDocsRoute,
        ),
      },
      {
        path: '*',
        lazy: page(
          () => import('./routes/not-found'),
          (m) => m.NotFoundRoute,
        ),
      },
    ],
  },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
