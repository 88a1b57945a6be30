import {
  API_ERROR_CODES,
  API_V1_BASE_PATH,
  apiErrorSchema,
  PLANS,
  schemaCreatedSchema,
  schemaListSchema,
  schemaReplacedSchema,
  schemaSchema,
  usageV1Schema,
  validateResultSchema,
} from '@schemacheck/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.ts';

// The public API's routes and its OpenAPI 3.1 document come from one declaration
// (docs/decisions/082): a route module calls `v1.route(spec, handler)`, which registers the
// Fastify route, parses params, query and JSON body with the spec's zod contracts before the
// handler runs, and records the operation. openApiDocument() turns the records into the document
// with zod's own JSON Schema output (draft 2020-12, which OpenAPI 3.1 uses), so what the routes
// validate and what the document says cannot drift apart.

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Json = Record<string, unknown>;

export interface ResponseSpec {
  description: string;
  /** JSON body; omitted for empty or non-JSON bodies. */
  schema?: z.ZodType;
  /** Other content types (text/csv) with a description of the body. */
  content?: Record<string, { schema: Record<string, unknown> }>;
  headers?: Record<string, Json>;
}

export interface OperationSpec<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> {
  method: Method;
  /** OpenAPI path under /api/v1, with {braces}: `/schemas/{schema_id}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  /** A JSON body, parsed and validated before the handler. */
  body?: B;
  /** A multipart body, for the document only: the handler reads the stream itself. */
  multipart?: z.ZodObject;
  /** Responses other than the errors every operation documents (400, 401, 403, 429, 5xx). */
  responses: Record<number, ResponseSpec>;
  /** Extra words for the docs page (samples pick this up). */
  rowsAndBytes?: boolean;
}

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The caller (set by the API-key check before any route runs). */
  auth: NonNullable<FastifyRequest['apiAuth']>;
}

/** Named schemas, referenced from operations by identity as #/components/schemas/<name>. */
const COMPONENTS = new Map<z.ZodType, string>([
  [apiErrorSchema, 'Error'],
  [schemaCreatedSchema, 'SchemaCreated'],
  [schemaSchema, 'Schema'],
  [schemaReplacedSchema, 'SchemaReplaced'],
  [schemaListSchema, 'SchemaList'],
  [validateResultSchema, 'ValidationResult'],
  [usageV1Schema, 'Usage'],
]);

export function nameComponent(schema: z.ZodType, name: string): void {
  COMPONENTS.set(schema, name);
}

export class ApiV1 {
  readonly operations: OperationSpec[] = [];

  constructor(readonly app: FastifyInstance) {}

  route<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
    spec: OperationSpec<P, Q, B>,
    handler: (ctx: RouteContext<z.output<P>, z.output<Q>, z.output<B>>) => Promise<unknown>,
  ): void {
    if (this.operations.some((o) => o.operationId === spec.operationId)) {
      throw new Error(`Duplicate operationId ${spec.operationId}`);
    }
    this.operations.push(spec as unknown as OperationSpec);
    const url = spec.path.replace(/\{([^}]+)\}/g, ':$1');
    this.app.route({
      method: spec.method,
      url,
      handler: async (request, reply) => {
        const params = parseWith(spec.params, request.params, 'path parameter');
        const query = parseWith(spec.query, request.query, 'query parameter');
        let body: unknown = undefined;
        if (spec.body) {
          if (
            typeof request.body !== 'object' ||
            request.body === null ||
            Array.isArray(request.body)
          ) {
            throw new AppError('validation', {
              message: 'The request body must be a JSON object (Content-Type: application/json)',
            });
          }
          body = parseWith(spec.body, request.body, 'body');
        }
        return handler({
          params: params as z.output<P>,
          query: query as z.output<Q>,
          body: body as z.output<B>,
          request,
          reply,
          auth: request.apiAuth!,
        });
      },
    });
  }
}

function parseWith(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return value;
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const first = issues[0];
  throw new AppError('validation', {
    message: first
      ? `${first.path ? `${where} ${first.path}: ` : ''}${first.message}`
      : 'The request is not valid',
    extra: { issues },
  });
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const name = COMPONENTS.get(schema);
  if (name) return { $ref: `#/components/schemas/${name}` };
  const out = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Json;
  delete out.$schema;
  return tidy(out) as Json;
}

/** zod spells a date-time as a format plus a long pattern; the format alone says it. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (!value || typeof value !== 'object') return value;
  const o = { ...(value as Json) };
  if (o.format === 'date-time' && typeof o.pattern === 'string') delete o.pattern;
  for (const k of Object.keys(o)) o[k] = tidy(o[k]);
  return o;
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const s = jsonSchema(schema, 'input');
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return {
      name,
      in: where,
      required: where === 'path' || (required.has(name) && rest.default === undefined),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

const RATE_HEADER_DEFS = {
  'RateLimit-Limit': {
    description: 'Requests allowed per window for this key.',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets.',
    schema: { type: 'integer' },
  },
};

const RATE_HEADERS = Object.fromEntries(
  Object.keys(RATE_HEADER_DEFS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

const COMMON_ERRORS: Record<number, string> = {
  400: 'A parameter or body property is missing or not valid.',
  401: 'No API key, a malformed, unknown or revoked key (invalid_api_key).',
  403: 'The account is not on the Business or Enterprise plan (plan_required).',
  429: 'Too many requests for this key (rate_limited), or the monthly validations are used (monthly_limit). See Retry-After.',
};

/** The OpenAPI 3.1 document of the operations registered on `v1`. */
export function openApiDocument(v1: ApiV1): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of v1.operations) {
    const responses: Record<string, Json> = {};
    for (const [status, r] of Object.entries(op.responses)) {
      responses[status] = {
        description: r.description,
        headers: { ...RATE_HEADERS, ...(r.headers ?? {}) },
        ...(r.schema
          ? { content: { 'application/json': { schema: jsonSchema(r.schema, 'output') } } }
          : r.content
            ? { content: r.content }
            : Number(status) >= 400
              ? { content: errorContent }
              : {}),
      };
    }
    for (const [status, description] of Object.entries(COMMON_ERRORS)) {
      responses[status] ??= {
        description,
        ...(status === '429'
          ? {
              headers: {
                'Retry-After': {
                  description: 'Seconds to wait before retrying.',
                  schema: { type: 'integer' },
                },
              },
            }
          : {}),
        content: errorContent,
      };
    }
    responses.default = {
      description: 'Any other error, in the same shape (see the error codes).',
      content: errorContent,
    };

    const parametersList = [...parameters(op.params, 'path'), ...parameters(op.query, 'query')];
    if (op.method === 'POST') {
      parametersList.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Up to 255 characters (a UUID is a good choice). Repeating a request with the same key returns the first response for 24 hours; the same key with a different request is refused (422).',
        schema: { type: 'string', maxLength: 255 },
      });
    }
    const operation: Json = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(parametersList.length ? { parameters: parametersList } : {}),
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(op.body, 'input') } },
            },
          }
        : op.multipart
          ? {
              requestBody: {
                required: true,
                content: { 'multipart/form-data': { schema: jsonSchema(op.multipart, 'input') } },
              },
            }
          : {}),
      responses,
    };
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operation;
  }

  const components: Record<string, Json> = {};
  for (const [schema, name] of COMPONENTS) {
    const s = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' }) as Json;
    delete s.$schema;
    components[name] = tidy(s) as Json;
  }
  const business = PLANS.business.limits;
  return {
    openapi: '3.1.0',
    info: {
      title: 'SchemaCheck API',
      version: '1.0.0',
      description: [
        'Validate CSV and JSON files against a schema from your data pipeline.',
        `Available on the Business (${business.monthlyValidations?.toLocaleString('en-GB')} validations a month) and Enterprise plans.`,
        'Authenticate with `Authorization: Bearer sc_…` (create keys in your profile).',
        'Errors have one shape, `{error, code}`; the codes are listed in `x-error-codes`.',
        'Changes within v1 are additive only: new operations, optional parameters, new response properties and new enum values.',
      ].join(' '),
    },
    servers: [{ url: API_V1_BASE_PATH, description: 'This site' }],
    security: [{ apiKey: [] }],
    tags: [...new Set(v1.operations.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'sc_ API key',
          description: 'An API key from your profile, sent as Authorization: Bearer sc_…',
        },
      },
      schemas: components,
      headers: RATE_HEADER_DEFS,
    },
    'x-error-codes': API_ERROR_CODES.map(([code, status, description]) => ({
      code,
      status,
      description,
    })),
  };
}
