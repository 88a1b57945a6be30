import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { SNAPSHOT_PATH } from '../src/api-v1/snapshot.ts';

// Every public API response a test sees is checked against the committed OpenAPI document
// (the one /api-docs publishes): its status must be documented for the operation (or fall under
// `default`), its content type listed, and a JSON body must match the schema. Shared by every
// apps/server/test/api-*.test.ts.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const openApi: Json = JSON.parse(readFileSync(SNAPSHOT_PATH, 'utf8'));

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: 'openapi', components: openApi.components }, 'openapi');

function resolveRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(resolveRefs);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema as Json)) {
    out[k] =
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi${v}` : resolveRefs(v);
  }
  return out;
}

const validators = new Map<unknown, ReturnType<typeof ajv.compile>>();

function operationFor(method: string, url: string): { template: string; op: Json } {
  const path = url.split('?')[0]!.replace(/^\/api\/v1/, '');
  for (const [template, ops] of Object.entries(openApi.paths as Json)) {
    const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const op = (ops as Json)[method.toLowerCase()];
    if (re.test(path) && op) return { template, op };
  }
  throw new Error(`${method} ${path} is not in the OpenAPI document`);
}

/** Fails the test when the response does not match the published document. */
export function expectDocumented(
  method: string,
  url: string,
  res:
    LightMyRequestResponse | { statusCode: number; headers: Record<string, unknown>; body: string },
): void {
  const { template, op } = operationFor(method, url);
  const where = `${method} ${template} → ${res.statusCode}`;
  const response: Json | undefined = op.responses[String(res.statusCode)] ?? op.responses.default;
  expect(response, `${where} is not documented`).toBeDefined();
  if (!response!.content) {
    expect(res.body, `${where} should have no body`).toBe('');
    return;
  }
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  const media = response!.content[type];
  expect(media, `${where}: content type ${type} is not documented`).toBeDefined();
  if (type !== 'application/json') return;
  let validate = validators.get(media.schema);
  if (!validate) {
    validate = ajv.compile(resolveRefs(media.schema) as object);
    validators.set(media.schema, validate);
  }
  const ok = validate(JSON.parse(res.body));
  expect(ok ? [] : validate.errors, `${where}: body does not match the document`).toEqual([]);
}
