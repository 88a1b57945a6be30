import {
  API_ERROR_CODES,
  API_V1_BASE_PATH,
  apiErrorSchema,
  jobCompletedEventSchema,
  jobFailedEventSchema,
  listListSchema,
  listSchema,
  listSummarySchema,
  PLANS,
  schemaCreatedSchema,
  schemaListSchema,
  schemaReplacedSchema,
  schemaSchema,
  usageV1Schema,
  validateResultSchema,
  webhookTestEventSchema,
} from '@schemacheck/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, ERRORS } from '../errors.ts';
import { plansWith } from '../plans.ts';
import { REQUEST_ID_MAX_LENGTH } from '../request-id.ts';
import { EVENT_EXAMPLES, EXAMPLE_REQUEST_ID, OPERATION_EXAMPLES } from './examples.ts';

// The public API's routes and its OpenAPI 3.1 document come from one declaration
// (docs/decisions/082): a route module calls `v1.route(spec, handler)`, which registers the
// Fastify route, parses params, query and JSON body with the spec's zod contracts before the
// handler runs, and records the operation. openApiDocument() turns the records into the document
// with zod's own JSON Schema output (draft 2020-12, which OpenAPI 3.1 uses), so what the routes
// validate and what the document says cannot drift apart.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
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
  /**
   * With `multipart`: a JSON body taken instead (Content-Type: application/json), parsed and
   * validated before the handler; the handler's `body` is undefined for a multipart request.
   */
  json?: B;
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
  [listSummarySchema, 'ReferenceListSummary'],
  [listSchema, 'ReferenceList'],
  [listListSchema, 'ReferenceListPage'],
  [validateResultSchema, 'ValidationResult'],
  [usageV1Schema, 'Usage'],
  [jobCompletedEventSchema, 'JobCompletedEvent'],
  [jobFailedEventSchema, 'JobFailedEvent'],
  [webhookTestEventSchema, 'WebhookTestEvent'],
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
        } else if (
          spec.json &&
          /^application\/json\b/i.test(request.headers['content-type'] ?? '')
        ) {
          if (
            typeof request.body !== 'object' ||
            request.body === null ||
            Array.isArray(request.body)
          ) {
            throw new AppError('validation', { message: 'The request body must be a JSON object' });
          }
          body = parseWith(spec.json, request.body, 'body');
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

/** Every response header of the API, defined once and referenced from each response. */
const HEADER_DEFS: Record<string, Json> = {
  'X-Request-Id': {
    description:
      'The id of this request: the X-Request-Id you sent (letters, digits and `._:=+/@-`, at most 128 characters), else one of ours. Quote it to support; error bodies carry it as `request_id`.',
    schema: { type: 'string', maxLength: REQUEST_ID_MAX_LENGTH },
  },
  'RateLimit-Limit': {
    description: 'Requests allowed per window for this account (every key shares it).',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Policy': {
    description: 'The limit and its window, e.g. `600;w=60`.',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored answer of an earlier request with the same Idempotency-Key (nothing ran again).',
    schema: { type: 'string', enum: ['true'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0 },
  },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE_HEADERS = {
  'RateLimit-Limit': ref('RateLimit-Limit'),
  'RateLimit-Remaining': ref('RateLimit-Remaining'),
  'RateLimit-Reset': ref('RateLimit-Reset'),
  'RateLimit-Policy': ref('RateLimit-Policy'),
};

/** The headers of every answer of an operation (POSTs may be replays). */
function headersOf(method: Method, status: string, own: Record<string, Json> = {}): Json {
  const retry = ['429', '503', '507'].includes(status) ? { 'Retry-After': ref('Retry-After') } : {};
  const replay = method === 'POST' ? { 'Idempotent-Replayed': ref('Idempotent-Replayed') } : {};
  return { 'X-Request-Id': ref('X-Request-Id'), ...RATE_HEADERS, ...replay, ...retry, ...own };
}

/** An error body for the document's examples: the code's own message. */
function errorExample(code: string): Json {
  const message = (ERRORS as Record<string, { message: string } | undefined>)[code]?.message;
  return { error: message ?? 'The request is not valid', code, request_id: EXAMPLE_REQUEST_ID };
}

/**
 * An error response's body: the Error schema and, by reference, an example per code (defined
 * once under components.examples, so that the document stays small enough for /api-docs).
 */
function errorContent(codes: string[]): Json {
  const examples = Object.fromEntries(
    codes.map((code) => [code, { $ref: `#/components/examples/error_${code}` }]),
  );
  return {
    'application/json': {
      schema: { $ref: '#/components/schemas/Error' },
      ...(codes.length ? { examples } : {}),
    },
  };
}

/** components.examples: one error body per public code. */
function errorExamples(): Json {
  return Object.fromEntries(
    API_ERROR_CODES.map(([code, , description]) => [
      `error_${code}`,
      { summary: description, value: errorExample(code) },
    ]),
  );
}

/** Codes of the public table with this status, for an error response's examples. */
function codesWithStatus(status: string): string[] {
  return API_ERROR_CODES.filter(([, s]) => String(s) === status).map(([code]) => code);
}

const COMMON_ERRORS: Record<number, string> = {
  400: 'A parameter or body property is missing or not valid.',
  401: 'No API key, a malformed, unknown or revoked key (invalid_api_key).',
  403: `The account is not on ${plansWith('apiAccess', 'or')} (plan_required).`,
  429: 'Too many requests for this account (rate_limited), or the monthly validations are used (monthly_limit). See Retry-After.',
};

/** Errors of every POST (Idempotency-Key) and of every operation with a body. */
function impliedErrors(op: OperationSpec): Record<number, string> {
  const out: Record<number, string> = {};
  if (op.method === 'POST') {
    out[409] =
      'A request with this Idempotency-Key is still running (idempotency_in_progress): retry shortly.';
    out[422] = 'This Idempotency-Key was used with a different request (idempotency_mismatch).';
  }
  if (op.body) out[413] = 'The JSON body is over 1 MB (payload_too_large).';
  if (op.body || op.multipart) {
    out[415] = op.body
      ? 'The body is not JSON (unsupported_media_type).'
      : 'Not multipart/form-data (unsupported_media_type), or not a CSV or JSON file (unsupported_file).';
  }
  return out;
}

/** The multipart form: the file part as bytes (OpenAPI 3.1 contentMediaType), text fields. */
function multipartContent(form: z.ZodObject, example: unknown): Json {
  const schema = jsonSchema(form, 'input');
  return {
    'multipart/form-data': {
      schema,
      encoding: {
        file: {
          contentType: 'text/csv, application/json, application/x-ndjson, application/octet-stream',
        },
      },
      ...(example !== undefined ? { example } : {}),
    },
  };
}

/** The document's `webhooks`: what SchemaCheck POSTs to a registered URL, per event. */
function webhooksSection(): Json {
  const signing = [
    [
      'webhook-id',
      'The message id: the same on every attempt of a message (drop duplicates by it).',
    ],
    ['webhook-timestamp', 'Seconds since the epoch when this attempt was signed.'],
    [
      'webhook-signature',
      '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` with the webhook’s `whsec_` secret (Standard Webhooks).',
    ],
  ].map(([name, description]) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  }));
  const events: Array<[string, string, string]> = [
    ['job.completed', 'JobCompletedEvent', 'A job ended with a result (valid or not).'],
    ['job.failed', 'JobFailedEvent', 'A job could not be validated; `error` says why.'],
    ['webhook.test', 'WebhookTestEvent', 'Sent by POST /webhooks/{webhook_id}/test.'],
  ];
  return Object.fromEntries(
    events.map(([event, component, summary]) => [
      event,
      {
        post: {
          operationId: `${event.replace(/\.(\w)/, (_m, c: string) => c.toUpperCase())}Event`,
          tags: ['Webhooks'],
          summary,
          description:
            'Answer any 2xx within 15 seconds to acknowledge. Other answers and timeouts are retried with backoff (Retry-After is honoured up to the schedule’s longest wait).',
          parameters: signing,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${component}` },
                example: EVENT_EXAMPLES[event],
              },
            },
          },
          responses: { '2XX': { description: 'Received.' } },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 document of the operations registered on `v1`, served from `appUrl`. */
export function openApiDocument(v1: ApiV1, options: { appUrl: string }): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of v1.operations) {
    const examples = OPERATION_EXAMPLES[op.operationId];
    const responses: Record<string, Json> = {};
    for (const [status, r] of Object.entries(op.responses)) {
      const example = examples?.responses[Number(status)];
      let content: Json | undefined;
      if (r.schema) {
        content = {
          'application/json': {
            schema: jsonSchema(r.schema, 'output'),
            ...(example !== undefined ? { example } : {}),
          },
        };
      } else if (r.content) {
        content = Object.fromEntries(
          Object.entries(r.content).map(([type, media]) => {
            const byType = (example as Record<string, unknown> | undefined)?.[type];
            return [type, { ...media, ...(byType !== undefined ? { example: byType } : {}) }];
          }),
        );
      } else if (Number(status) >= 400) {
        content = errorContent(codesWithStatus(status));
      }
      responses[status] = {
        description: r.description,
        headers: headersOf(op.method, status, r.headers),
        ...(content ? { content } : {}),
      };
    }
    for (const [status, description] of Object.entries({
      ...COMMON_ERRORS,
      ...impliedErrors(op),
    })) {
      if (responses[status]) continue;
      responses[status] = {
        description,
        headers: headersOf(op.method, status),
        content: errorContent(
          status === '413'
            ? ['payload_too_large']
            : status === '415' && op.body
              ? ['unsupported_media_type']
              : codesWithStatus(status),
        ),
      };
    }
    responses.default = {
      description:
        'Any other error, in the same shape (see the error codes): e.g. 503 or 507 with Retry-After.',
      headers: headersOf(op.method, 'default'),
      content: errorContent([]),
    };

    const parametersList = [
      ...parameters(op.params, 'path').map((p) => {
        const value = examples?.params?.[p.name as string];
        return value !== undefined ? { ...p, example: value } : p;
      }),
      ...parameters(op.query, 'query'),
      {
        name: 'X-Request-Id',
        in: 'header',
        required: false,
        description:
          'Your own id for this request (e.g. your trace id), echoed in the X-Request-Id response header and in error bodies, and kept in our logs.',
        schema: { type: 'string', maxLength: REQUEST_ID_MAX_LENGTH },
      },
    ];
    if (op.method === 'POST') {
      parametersList.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Up to 255 characters (a UUID is a good choice). Repeating a request with the same key returns the first response for 24 hours (with Idempotent-Replayed: true); the same key with a different request is refused (422).',
        schema: { type: 'string', maxLength: 255 },
      });
    }
    const operation: Json = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      parameters: parametersList,
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: jsonSchema(op.body, 'input'),
                  ...(examples?.request !== undefined ? { example: examples.request } : {}),
                },
              },
            },
          }
        : op.multipart
          ? {
              requestBody: {
                required: true,
                content: {
                  ...multipartContent(op.multipart, examples?.request),
                  ...(op.json
                    ? {
                        'application/json': {
                          schema: jsonSchema(op.json, 'input'),
                          ...(examples?.json !== undefined ? { example: examples.json } : {}),
                        },
                      }
                    : {}),
                },
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
        'Errors have one shape, `{error, code, request_id}`; the codes are listed in `x-error-codes`. Every response carries `X-Request-Id` (yours when you send one).',
        'Lists are newest first; page with `starting_after` (the last id you have) to never repeat or skip an item.',
        'Changes within v1 are additive only: new operations, optional parameters, new response properties and new enum values.',
      ].join(' '),
    },
    servers: [
      {
        url: `${options.appUrl.replace(/\/+$/, '')}${API_V1_BASE_PATH}`,
        description: 'This server',
      },
    ],
    security: [{ apiKey: [] }],
    tags: [...new Set(v1.operations.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    webhooks: webhooksSection(),
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
      headers: HEADER_DEFS,
      examples: errorExamples(),
    },
    'x-error-codes': API_ERROR_CODES.map(([code, status, description]) => ({
      code,
      status,
      description,
    })),
  };
}
