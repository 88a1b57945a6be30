import type { ApiV1 } from '../openapi.ts';
import jobRoutes from './jobs.ts';
import listRoutes from './lists.ts';
import openApiDocumentRoute from './openapi-document.ts';
import reportRoutes from './reports.ts';
import schemaRoutes from './schemas.ts';
import usageRoutes from './usage.ts';
import validateRoutes from './validate.ts';
import webhookRoutes from './webhooks.ts';

// Every public API route module, in the order the document lists them. A module registers its
// routes with v1.route(), which also records them for the OpenAPI document.

export type ApiV1RouteModule = (v1: ApiV1) => void | Promise<void>;

export const routeModules: ApiV1RouteModule[] = [
  schemaRoutes,
  listRoutes,
  validateRoutes,
  jobRoutes,
  reportRoutes,
  usageRoutes,
  webhookRoutes,
  // Last: the document lists every route registered before it.
  openApiDocumentRoute,
];
