import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentOpenApiDocument, SNAPSHOT_PATH } from '../src/api-v1/snapshot.ts';

interface Operation {
  operationId: string;
  summary: string;
  responses: Record<string, unknown>;
}

// The committed OpenAPI document (what /api-docs publishes) is the one the routes generate.
// After changing a contract or a route: npm run openapi -w @schemacheck/server

describe('OpenAPI document', () => {
  it('matches the committed snapshot', async () => {
    const committed = JSON.parse(readFileSync(SNAPSHOT_PATH, 'utf8'));
    const current = await currentOpenApiDocument();
    expect(
      current,
      'The OpenAPI document changed: run `npm run openapi -w @schemacheck/server` and commit it',
    ).toEqual(committed);
    // Building the app takes a while on a loaded machine.
  }, 180_000);

  it('is OpenAPI 3.1 with every operation documented', async () => {
    const doc = JSON.parse(readFileSync(SNAPSHOT_PATH, 'utf8'));
    expect(doc.openapi).toBe('3.1.0');
    const ids: string[] = [];
    for (const ops of Object.values(doc.paths as Record<string, Record<string, Operation>>)) {
      for (const op of Object.values(ops)) {
        ids.push(op.operationId);
        expect(op.summary).toBeTruthy();
        expect(op.responses.default).toBeDefined();
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'createSchema',
        'listSchemas',
        'validateFile',
        'getReport',
        'getUsage',
      ]),
    );
  });
});
